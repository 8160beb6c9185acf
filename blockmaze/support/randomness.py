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


# numpy's SeedSequence (numpy/random/bit_generator.pyx), its constants: a pool of four 32-bit
# words mixed from the entropy, then hashed out into the state
_POOL = 4
_INIT_A, _MULT_A, _INIT_B, _MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
_MIX_L, _MIX_R = 0xCA01F9DD, 0x4973F715
_MASK = 0xFFFFFFFF


def item_seeds(root: int, first: int, count: int, stream: int = 0) -> np.ndarray:
    """:func:`item_seed` of items ``first`` to ``first + count - 1`` at once (``uint64``): the
    same numbers, SeedSequence's mixing done on arrays, a microsecond an item instead of some
    thirty. Indices from 2**32 up go one by one through SeedSequence itself.

    >>> seeds = item_seeds(2 ** 64 - 5, 10, 3, stream=1)
    >>> [int(s) for s in seeds] == [item_seed(2 ** 64 - 5, i, 1) for i in range(10, 13)]
    True
    """
    if not 0 <= root < 2 ** 64 or not 0 <= stream < 2 ** 32 or first < 0:
        raise BlockmazeError("item_seeds: a root below 2**64, a stream below 2**32, indices >= 0")
    if first + count > 2 ** 32:
        return np.array([item_seed(root, i, stream) for i in range(first, first + count)],
                        np.uint64)
    index = np.arange(first, first + count, dtype=np.uint64).astype(np.uint32)
    # the entropy: the root's two words (padded to the pool's four, as a spawned sequence's
    # is), then the spawn key's words: the index and the stream
    constant = [np.full(count, w, np.uint32) for w in (root & _MASK, root >> 32, 0, 0)]
    entropy = [*constant, index, np.full(count, stream, np.uint32)]
    hash_const = _INIT_A

    def hashmix(value: np.ndarray) -> np.ndarray:
        nonlocal hash_const
        value = value ^ np.uint32(hash_const)
        hash_const = (hash_const * _MULT_A) & _MASK
        value = value * np.uint32(hash_const)
        return value ^ (value >> np.uint32(16))

    def mix(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        result = np.uint32(_MIX_L) * x - np.uint32(_MIX_R) * y
        return result ^ (result >> np.uint32(16))

    with np.errstate(over="ignore"):
        pool = [hashmix(entropy[i]) for i in range(_POOL)]
        for source in range(_POOL):
            for target in range(_POOL):
                if source != target:
                    pool[target] = mix(pool[target], hashmix(pool[source]))
        for source in range(_POOL, len(entropy)):
            for target in range(_POOL):
                pool[target] = mix(pool[target], hashmix(entropy[source]))
        words = []
        hash_const = _INIT_B
        for word in range(2):  # a uint64: two words, the low one first
            value = pool[word] ^ np.uint32(hash_const)
            hash_const = (hash_const * _MULT_B) & _MASK
            value = value * np.uint32(hash_const)
            words.append(value ^ (value >> np.uint32(16)))
    return words[0].astype(np.uint64) | (words[1].astype(np.uint64) << np.uint64(32))
