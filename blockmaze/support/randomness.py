"""Turning a seed into the one random Generator a function draws from."""

from __future__ import annotations

import numbers

import numpy as np

from ..errors import BlockmazeError

def as_generator(rng: np.random.Generator | int | None) -> np.random.Generator:
    """Return a numpy Generator for ``rng``: a Generator, a seed >= 0, or None (fresh entropy).

    Nothing touches numpy's or Python's global random state.

    Example
    -------
    >>> int(as_generator(7).integers(100)) == int(as_generator(7).integers(100))
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if rng < 0:
            raise BlockmazeError(f"seed must be a whole number >= 0, got {rng}")
        return np.random.default_rng(int(rng))
    raise BlockmazeError(
        f"rng must be a numpy Generator, a whole-number seed >= 0 or None, got {rng!r}"
    )


def draw_seed() -> int:
    """A fresh seed (from the operating system's entropy), to be reported so a run can be redone.

    >>> 0 <= draw_seed() < 2 ** 32
    True
    """
    return int(np.random.SeedSequence().generate_state(1)[0])


def item_seed(root: int, index: int, stream: int = 0) -> int:
    """The seed of item ``index`` of a batch whose root seed is ``root``: derived from these two
    alone (numpy's ``SeedSequence`` with the spawn key ``(index, stream)``), so any split of the
    items among workers gives each the same seed. ``stream`` 0 is the item's own seed (its maze);
    other streams draw what the item's options take from their ranges.

    >>> item_seed(7, 3) == item_seed(7, 3), item_seed(7, 3) != item_seed(7, 4)
    (True, True)
    >>> 0 <= item_seed(7, 3) < 2 ** 64
    True
    """
    sequence = np.random.SeedSequence(root, spawn_key=(index, stream))
    return int(sequence.generate_state(1, np.uint64)[0])
