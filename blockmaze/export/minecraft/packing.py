"""Long arrays of packed values as Anvil chunks hold them since 1.16: no value spans two longs.

Each 64-bit long holds ``64 // bits`` values, the first in its lowest bits; the unused high
bits of every long are zero (``SimpleBitStorage``). So 4096 block indices at 4 bits take 256
longs, 256 heightmap values at 9 bits take 37.

Example
-------
>>> longs = pack_longs(np.arange(8), 4)
>>> hex(int(longs[0]))
'0x76543210'
>>> unpack_longs(longs, 4, 8).tolist()
[0, 1, 2, 3, 4, 5, 6, 7]
"""

from __future__ import annotations

from ...support.kernels import kernel
import numpy as np


def long_count(count: int, bits: int) -> int:
    """Longs needed for ``count`` values of ``bits`` bits, without spanning.

    >>> long_count(4096, 4), long_count(4096, 5), long_count(256, 9)
    (256, 342, 37)
    """
    per = 64 // bits
    return (count + per - 1) // per


@kernel
def pack_into(values, bits, out):
    """Pack ``values`` (non-negative, < 2**bits) into ``out`` (int64, zeroed, long enough): a
    long at a time, shifting each value in (no division an element)."""
    per = 64 // bits
    i = 0
    for j in range(out.size):
        word = np.int64(0)
        for shift in range(0, per * bits, bits):
            if i == values.size:
                break
            word |= np.int64(values[i]) << np.int64(shift)
            i += 1
        out[j] |= word


def pack_longs(values: np.ndarray, bits: int) -> np.ndarray:
    """The int64 longs that hold ``values`` at ``bits`` bits each (1 <= bits <= 32)."""
    values = np.ascontiguousarray(values, dtype=np.int64).ravel()
    out = np.zeros(long_count(values.size, bits), dtype=np.int64)
    pack_into(values, bits, out)
    return out


def pack_rows(values: np.ndarray, bits: int, word: int = 64) -> np.ndarray:
    """Each row of ``values`` (m, n) packed as :func:`pack_longs` packs it, with numpy alone:
    ``word // bits`` values a word from its lowest bits, none across two words. ``word`` 64:
    Java's longs, (m, long_count(n, bits)) int64; 32: a Bedrock sub-chunk's words, uint32.

    >>> [hex(v) for v in pack_rows(np.arange(16).reshape(2, 8), 4)[:, 0].tolist()]
    ['0x76543210', '0xfedcba98']
    >>> pack_rows(np.arange(4096)[None] % 2, 1, word=32)[0, :1].tobytes().hex()
    'aaaaaaaa'
    """
    rows, count = values.shape
    per = word // bits
    used = -(-count // per)
    dtype = np.int64 if word == 64 else np.uint32
    padded = np.zeros((rows, used * per), dtype=dtype)
    padded[:, :count] = values
    shifts = np.arange(per, dtype=dtype) * dtype(bits)
    return np.bitwise_or.reduce(padded.reshape(rows, used, per) << shifts, axis=2)


def unpack_longs(longs: np.ndarray, bits: int, count: int, word: int = 64) -> np.ndarray:
    """``count`` values of ``bits`` bits back out of ``longs`` (the inverse of :func:`pack_longs`,
    and of :func:`pack_rows`' 32-bit words with ``word=32``).

    >>> unpack_longs(pack_rows(np.arange(7)[None], 3, word=32)[0], 3, 7, word=32).tolist()
    [0, 1, 2, 3, 4, 5, 6]
    """
    signed, unsigned = (np.int64, np.uint64) if word == 64 else (np.int32, np.uint32)
    longs = np.ascontiguousarray(longs)
    longs = longs.view(signed) if longs.dtype.itemsize == word // 8 else longs.astype(signed)
    per = word // bits
    needed = -(-count // per)
    if longs.size < needed:
        raise ValueError(f"{longs.size} words hold fewer than {count} values of {bits} bits")
    # (np.ndarray: numpy's types of either width, joined, keep no shift operator)
    shifts: np.ndarray = np.arange(per, dtype=unsigned) * unsigned(bits)
    mask = unsigned((1 << bits) - 1)
    used: np.ndarray = longs[:needed].view(unsigned)
    # numpy, a column per value slot of a long: a world's thousands of sections load no kernel
    return ((used[:, None] >> shifts) & mask).astype(np.int64).reshape(-1)[:count]
