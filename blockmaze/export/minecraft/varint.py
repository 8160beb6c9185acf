"""Unsigned LEB128 varints: 7 bits a byte, low group first, high bit set on all but the last byte."""

from __future__ import annotations

from ...kernels import kernel
import numpy as np


@kernel
def _encode(values):
    size = 0
    for v in values:
        size += 1
        while v >= 0x80:
            v >>= 7
            size += 1
    out = np.empty(size, dtype=np.uint8)
    pos = 0
    for v in values:
        while v >= 0x80:
            out[pos] = (v & 0x7F) | 0x80
            v >>= 7
            pos += 1
        out[pos] = v
        pos += 1
    return out


def encode_varints(values: np.ndarray) -> np.ndarray:
    """The varint bytes of non-negative integers, in order.

    >>> encode_varints(np.array([1, 127, 128, 300])).tolist()
    [1, 127, 128, 1, 172, 2]
    """
    values = np.ascontiguousarray(values).ravel()
    if values.size and values.min() < 0:
        raise ValueError("varints here are unsigned")
    return _encode(values)
