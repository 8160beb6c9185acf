"""Unsigned LEB128 varints: 7 bits a byte, low group first, high bit set on all but the last byte."""

from __future__ import annotations

import numpy as np


def encode_varints(values: np.ndarray) -> np.ndarray:
    """The varint bytes of non-negative integers, in order.

    Vectorized with numpy, a pass per 7-bit group (no compiled kernel to load: a schematic's
    palette indices below 128 are their own bytes).

    >>> encode_varints(np.array([1, 127, 128, 300])).tolist()
    [1, 127, 128, 1, 172, 2]
    """
    values = np.ascontiguousarray(values).ravel()
    if values.size and values.min() < 0:
        raise ValueError("varints here are unsigned")
    if not values.size or values.max() < 0x80:
        return values.astype(np.uint8)
    values = values.astype(np.uint64, copy=False)
    lengths = np.ones(values.size, np.int64)
    group = 1
    while True:
        more = values >= np.uint64(1 << (7 * group))
        if not more.any():
            break
        lengths += more
        group += 1
    starts = np.cumsum(lengths) - lengths
    out = np.empty(int(lengths.sum()), np.uint8)
    for k in range(group):
        has = lengths > k
        byte = (values[has] >> np.uint64(7 * k)) & np.uint64(0x7F)
        byte |= np.where(lengths[has] > k + 1, np.uint64(0x80), np.uint64(0))
        out[starts[has] + k] = byte
    return out
