"""Refusing work that cannot fit in this machine's memory, before allocating it."""

from __future__ import annotations

import os

from .errors import BlockmazeError

GIB = 1 << 30
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_bytes(text: str, what: str) -> int:
    """A byte count written as a whole number with an optional K, M, G or T (powers of 1024).

    >>> parse_bytes("512M", "--memory-limit"), parse_bytes("2g", "x"), parse_bytes("1000", "x")
    (536870912, 2147483648, 1000)
    """
    raw = str(text).strip().upper().removesuffix("IB").removesuffix("B")
    unit = raw[-1:] if raw[-1:] in _UNITS and raw[-1:] else ""
    number = raw[: len(raw) - len(unit)].strip()
    if not number.isascii() or not number.isdigit() or len(number) > 20 or int(number) < 1:
        raise BlockmazeError(f"{what} must be a whole number of bytes >= 1, optionally with K, M, G "
                             f"or T (e.g. 512M, 8G); got {text!r}")
    return int(number) * _UNITS[unit]


def available_memory() -> int:
    """Bytes of memory this process can still take (MemAvailable, else physical memory).

    Example
    -------
    >>> available_memory() > 0
    True
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 62  # unknown platform: do not refuse


def ensure_memory(nbytes: int, what: str) -> None:
    """Raise BlockmazeError if ``nbytes`` for ``what`` exceed the memory available.

    Example
    -------
    >>> ensure_memory(1 << 70, "a huge maze")
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: a huge maze needs about 1099511627776.0 GiB of memory; ...
    """
    available = available_memory()
    if nbytes > available:
        raise BlockmazeError(
            f"{what} needs about {nbytes / GIB:.1f} GiB of memory; "
            f"only {available / GIB:.1f} GiB is available: choose a smaller size"
        )
