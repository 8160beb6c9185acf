"""numba kernels that count blocks in NBT data piece by piece, so ``blockmaze info`` reads a file
of any size in bounded memory: every kernel takes one piece of the bytes and a small ``state``
array it carries to the next piece.

Example
-------
>>> import numpy as np
>>> counts, state = np.zeros(4, np.int64), np.zeros(3, np.int64)
>>> varint_tally(np.array([1, 3, 0x81], np.uint8), counts, state)   # 1, 3, half of 129
0
>>> int(state[1]), counts.tolist()
(7, [0, 1, 0, 1])
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

# statuses: 0 fine; negative = what was wrong (see STATUS)
STATUS = {-1: "a malformed varint", -2: "an index outside the palette",
          -3: "more blocks than the size holds", -4: "an element that is not well-formed NBT",
          -5: "a block without an Int state", -6: "NBT nested too deeply"}


@kernel
def varint_tally(data, counts, state):
    """Count the varints in ``data`` into ``counts``; ``state`` = [value so far, shift, blocks
    counted so far] carries a varint split between pieces. Returns a status."""
    value, shift, n = state[0], state[1], state[2]
    size = counts.size
    for pos in range(data.size):
        byte = np.int64(data[pos])
        if shift > 28:
            return -1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            if value >= size:
                return -2
            counts[value] += 1
            n += 1
            value, shift = 0, 0
    state[0], state[1], state[2] = value, shift, n
    return 0


@kernel
def packed_tally(words, bits, total, counts, state):
    """Count Litematica's spanning bit-packed entries of ``bits`` bits in ``words`` (uint64),
    at most ``total`` in all; ``state`` = [leftover bits, how many, entries counted]."""
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    acc, nacc, n = np.uint64(state[0]), state[1], state[2]
    size = counts.size
    for i in range(words.size):
        word = words[i]
        avail = 64
        used = 0
        if nacc:  # finish the entry that spilled over from the last word
            take = bits - nacc
            value = acc | ((word & ((np.uint64(1) << np.uint64(take)) - np.uint64(1))) << np.uint64(nacc))
            used = take
            nacc = 0
            if n < total:
                if value >= size:
                    return -2
                counts[value] += 1
                n += 1
        while used + bits <= avail:
            value = (word >> np.uint64(used)) & mask
            used += bits
            if n < total:
                if value >= size:
                    return -2
                counts[value] += 1
                n += 1
        if used < avail:
            acc = word >> np.uint64(used)
            nacc = avail - used
        else:
            acc, nacc = np.uint64(0), 0
    state[0], state[1], state[2] = np.int64(acc), nacc, n
    return 0


_SIZES = np.array([0, 1, 2, 4, 8, 4, 8, -1, -1, -1, -1, -1, -1], dtype=np.int64)
_ITEMS = np.array([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 8], dtype=np.int64)


@kernel
def _be(buf, pos, size):
    value = np.int64(0)
    for k in range(size):
        value = (value << 8) | np.int64(buf[pos + k])
    return value


@kernel
def _skip_name(buf, pos, end):
    if pos + 2 > end:
        return -1
    return pos + 2 + _be(buf, pos, 2)


@kernel
def compound_states(buf, pos, end, wanted, out):
    """Walk big-endian list elements that are Compounds from ``buf[pos:end]``, at most ``wanted``,
    writing each element's top-level Int ``state`` to ``out``. Returns (position after the last
    whole element, elements done, status); an element cut off at ``end`` is left for the next
    piece (status 0, fewer done)."""
    kinds = np.empty(600, np.int64)   # per open level: 10 (compound) or list item tag
    left = np.empty(600, np.int64)    # list items still to read
    done = 0
    while done < wanted:
        p = pos
        depth = 0
        kinds[0], left[0] = 10, 0
        state = -1
        cut = False
        while depth >= 0:
            if kinds[depth] == 10:
                if p >= end:
                    cut = True
                    break
                tag = np.int64(buf[p])
                p += 1
                if tag == 0:
                    depth -= 1
                    continue
                if tag > 12:
                    return pos, done, -4
                name_at = p
                p = _skip_name(buf, p, end)
                if p < 0 or p > end:
                    cut = True
                    break
                if depth == 0 and tag == 3 and p - name_at == 7 and buf[name_at + 2] == 115 \
                        and buf[name_at + 3] == 116 and buf[name_at + 4] == 97 \
                        and buf[name_at + 5] == 116 and buf[name_at + 6] == 101:  # "state"
                    if p + 4 > end:
                        cut = True
                        break
                    state = _be(buf, p, 4)
                    if state >= 1 << 31:
                        state -= 1 << 32
            else:
                if left[depth] == 0:
                    depth -= 1
                    continue
                left[depth] -= 1
                tag = kinds[depth]
            # read one payload of type tag at p
            if _SIZES[tag] > 0:
                p += _SIZES[tag]
            elif tag == 8:
                p = _skip_name(buf, p, end)
                if p < 0:
                    cut = True
                    break
            elif _ITEMS[tag] > 0:
                if p + 4 > end:
                    cut = True
                    break
                count = _be(buf, p, 4)
                if count >= 1 << 31:
                    return pos, done, -4
                p += 4 + count * _ITEMS[tag]
            elif tag == 9 or tag == 10:
                if depth + 1 >= 512:
                    return pos, done, -6
                if tag == 10:
                    depth += 1
                    kinds[depth], left[depth] = 10, 0
                else:
                    if p + 5 > end:
                        cut = True
                        break
                    item = np.int64(buf[p])
                    count = _be(buf, p + 1, 4)
                    p += 5
                    if item > 12 or count >= 1 << 31 or (item == 0 and count > 0):
                        return pos, done, -4
                    if count:
                        depth += 1
                        kinds[depth], left[depth] = item, count
            else:
                return pos, done, -4
            if p > end:
                cut = True
                break
        if cut:
            return pos, done, 0
        if state < 0:
            return pos, done, -5
        out[done] = state
        done += 1
        pos = p
    return pos, done, 0


class PackedCounter:
    """Counts Litematica's bit-packed entries fed as uint64 words, piece by piece. For 2, 4 or 8
    bits no entry spans two words: whole words are counted by their bytes (a 256-bin histogram,
    numpy's bincount), and only the last word — which may hold padding — entry by entry.

    The words must be exactly as many as ``total`` entries need (the caller checks).

    >>> counter = PackedCounter(bits=2, total=33, palette_size=4)   # 32 entries a word
    >>> counter.feed(np.array([0b11_10_01_00, 0b01], np.uint64)); counter.finish().tolist()
    [29, 2, 1, 1]
    """

    def __init__(self, bits: int, total: int, palette_size: int):
        self.bits, self.total = bits, total
        self.counts = np.zeros(max(palette_size, 1), np.int64)
        self.state = np.zeros(3, np.int64)
        self.by_bytes = bits in (2, 4, 8)
        self.histogram = np.zeros(256, np.int64)
        self.last = np.zeros(0, np.uint64)
        self.words_done = 0

    def feed(self, words: np.ndarray) -> None:
        if not self.by_bytes:
            self._exact(words)
            return
        words = np.concatenate([self.last, words]) if self.last.size else words
        if not words.size:
            return
        whole, self.last = words[:-1], words[-1:]
        self.histogram += np.bincount(whole.astype("<u8").view(np.uint8), minlength=256)
        self.words_done += whole.size

    def _exact(self, words: np.ndarray) -> None:
        if packed_tally(words, self.bits, self.total, self.counts, self.state):
            raise ValueError("an index outside the palette")

    def finish(self) -> np.ndarray:
        """The counts per palette index; ValueError if an entry is outside the palette."""
        if self.by_bytes:
            per_byte = 8 // self.bits
            mask = (1 << self.bits) - 1
            values = np.arange(256)
            found = np.zeros(1 << self.bits, np.int64)
            for k in range(per_byte):
                np.add.at(found, (values >> (k * self.bits)) & mask, self.histogram)
            if found[self.counts.size:].any():
                raise ValueError("an index outside the palette")
            self.counts += found[: self.counts.size]
            done = self.words_done * (64 // self.bits)
            if self.last.size:  # the last word, in plain Python: no JIT start-up for a few entries
                word = int(self.last[0])
                for k in range(min(64 // self.bits, self.total - done)):
                    value = (word >> (k * self.bits)) & mask
                    if value >= self.counts.size:
                        raise ValueError("an index outside the palette")
                    self.counts[value] += 1
            self.last = np.zeros(0, np.uint64)
        return self.counts
