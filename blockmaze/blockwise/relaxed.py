"""Relaxed blockwise generation: every block may become passage, and the passages form one tree.

There is no cell lattice. Carving starts at a random block and grows: from an open block, a
4-neighbour may be carved only if none of *its own* 4 neighbours, other than the block it is
carved from, is open yet. So a block is opened with exactly one open neighbour, its parent, and
nothing can open next to it later except its own children: the open blocks, joined where they
are 4-adjacent, form exactly the carving tree — one connected, acyclic network of passages one
block wide, with no 2x2 open square and no loop (passages may touch diagonally). Carving stops
when no block can be opened.

Any width and length in blocks, odd or even. By default the outer ring stays solid (an outer
wall, so the plan can be extruded and walked without falling off the edge; it needs at least
3x3 blocks); ``border=False`` lets passages reach the edge, for plans tiled or walled by the
caller (any size >= 1x1).

The order in which open blocks are grown (``ordering``) shapes the maze, as it does for graph
algorithms:

- ``backtracker`` (alias ``newest``): always grow the newest open block — long winding passages;
- ``prim``: open a uniformly random frontier block (a closed block with exactly one open
  neighbour) — many short branches;
- ``growing-tree[:R|newest|random|oldest]``: grow the newest open block with probability R, else
  a random open one (``random`` = 0, ``newest`` = 1, default 0.5); ``oldest`` grows the oldest
  open block that can still grow.

Dead blocks: a solid block is *dead* if all four of its neighbours are solid blocks of the plan —
no passage beside it and not on the plan's edge. No face of it can be seen or touched, from the
passages or from outside (looking along the plan), so it may be any material: filled with
something cheaper, lighter or decorative, the maze looks and plays the same. The relaxed rule
leaves such blocks behind: it never carves beside an open block's side, so patches of solid that
no frontier reaches remain (few under ``backtracker`` and ``prim``, about 2-3 % of the solid
blocks; whole wedges under ``growing-tree:oldest``, a quarter to a half). The layout reports their mask and
their share of all solid blocks; ``fill`` replaces them with a material of the caller's choice.

Example
-------
>>> layout = relaxed_layout(7, 9, rng=1)
>>> layout.plan.shape, bool(layout.plan[0].all())       # (z, x); the outer ring stays solid
((7, 9), True)
>>> 0.0 <= layout.dead_share <= 1.0
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..support.kernels import kernel
import numpy as np

from ..errors import BlockmazeError
from ..materials import Material
from ..support.randomness import as_generator
from ..support.memory import ensure_memory

CLOSED, OPEN, OUTSIDE, DONE = 0, 1, 2, 3  # kernel block states (DONE: open, cannot grow any more)
GROWING_TREE, OLDEST, PRIM = 0, 1, 2  # kernel modes

ORDERINGS = ("backtracker", "prim", "growing-tree")
GROWING_TREE_OPTIONS = {"newest": 1.0, "random": 0.0}


@kernel
def _open_block(state, count, offsets, block):
    state[block] = OPEN
    for j in range(4):
        count[block + offsets[j]] += 1


@kernel
def relaxed_kernel(state, count, stride, root, mode, ratio, active, order, rng):
    """Carve the relaxed tree from ``root`` over a padded, flattened block array; return blocks opened.

    ``state`` holds CLOSED (may be carved) or OUTSIDE (never carved: the padding around the plan
    and, with a border, the plan's outer ring) and is updated in place to OPEN/DONE; ``count[b]``
    is kept equal to the number of open 4-neighbours of b. ``stride`` is the padded row length;
    every carvable block has all four neighbours inside the array. ``active`` is scratch of one
    entry per block (its dtype sets the index width). If ``order`` has one entry per block, the
    step at which each block is opened (root 0) is written there; pass a 1-entry array to skip it.

    A CLOSED block b may be opened iff ``count[b] == 1``: its one open neighbour is the block it
    is carved from, and none of its other neighbours is open. Counts only grow, so a block whose
    count passed 1 can never be opened.

    Modes: GROWING_TREE grows the newest active block with probability ``ratio``, else a random
    one; OLDEST grows the oldest; PRIM opens a random frontier block (CLOSED with count 1).
    Removed active entries are tombstoned (state DONE) and skipped, with an order-keeping
    compaction when they outnumber the live ones, so "newest" and "oldest" keep their meaning.
    """
    offsets = np.empty(4, dtype=np.int64)
    offsets[0] = -stride
    offsets[1] = 1
    offsets[2] = stride
    offsets[3] = -1
    record = order.size == state.size
    _open_block(state, count, offsets, root)
    if record:
        order[root] = 0
    opened = 1
    if mode == PRIM:
        top = 0
        for j in range(4):
            nb = root + offsets[j]
            if state[nb] == CLOSED and count[nb] == 1:
                active[top] = nb
                top += 1
        while top > 0:
            i = int(rng.random() * top)
            block = active[i]
            top -= 1
            active[i] = active[top]
            if count[block] != 1:  # another neighbour opened since it joined the frontier
                continue
            _open_block(state, count, offsets, block)
            if record:
                order[block] = opened
            opened += 1
            for j in range(4):
                nb = block + offsets[j]
                if state[nb] == CLOSED and count[nb] == 1:  # count just became 1: joins once
                    active[top] = nb
                    top += 1
        return opened

    choices = np.empty(4, dtype=np.int64)
    active[0] = root
    bottom, top, live = 0, 1, 1
    while live > 0:
        if mode == OLDEST:
            while state[active[bottom]] == DONE:
                bottom += 1
            i = bottom
        elif ratio >= 1.0 or (ratio > 0.0 and rng.random() < ratio):
            while state[active[top - 1]] == DONE:
                top -= 1
            i = top - 1
        else:
            while True:
                i = bottom + int(rng.random() * (top - bottom))
                if state[active[i]] != DONE:
                    break
        block = active[i]
        k = 0
        for j in range(4):
            nb = block + offsets[j]
            choices[k] = nb
            k += (state[nb] == CLOSED) & (count[nb] == 1)
        if k == 0:
            state[block] = DONE
            live -= 1
            if i == top - 1:
                top -= 1
            if top - bottom > 2 * live + 64:  # compact, keeping the order
                w = 0
                for r in range(bottom, top):
                    if state[active[r]] != DONE:
                        active[w] = active[r]
                        w += 1
                bottom, top = 0, w
            continue
        nb = choices[int(rng.random() * k)] if k > 1 else choices[0]
        _open_block(state, count, offsets, nb)
        if record:
            order[nb] = opened
        opened += 1
        active[top] = nb
        top += 1
        live += 1
    return opened


def parse_ordering(ordering: str) -> tuple[int, float]:
    """The kernel mode and newest-ratio of an ordering spec.

    >>> parse_ordering("backtracker"), parse_ordering("prim"), parse_ordering("growing-tree:0.75")
    ((0, 1.0), (2, 0.0), (0, 0.75))
    """
    if not isinstance(ordering, str):
        raise BlockmazeError(f"ordering must be a string, got {ordering!r}")
    name, _, option = ordering.partition(":")
    if name in ("backtracker", "newest", "prim") and option:
        raise BlockmazeError(f"{name} takes no option, got {option!r}")
    if name in ("backtracker", "newest"):
        return GROWING_TREE, 1.0
    if name == "prim":
        return PRIM, 0.0
    if name == "growing-tree":
        if not option:
            return GROWING_TREE, 0.5
        if option == "oldest":
            return OLDEST, 0.0
        if option in GROWING_TREE_OPTIONS:
            return GROWING_TREE, GROWING_TREE_OPTIONS[option]
        try:
            ratio = float(option)
        except ValueError:
            ratio = -1.0
        if not 0.0 <= ratio <= 1.0:
            raise BlockmazeError(
                f"growing-tree takes newest, random, oldest or a share of newest picks in [0, 1], "
                f"got {option!r}"
            )
        return GROWING_TREE, ratio
    raise BlockmazeError(
        f"unknown relaxed ordering {ordering!r}; choose one of: backtracker, prim, "
        "growing-tree[:R|newest|random|oldest]"
    )


@dataclass(frozen=True)
class RelaxedLayout:
    """A relaxed blockwise maze and its report.

    Attributes
    ----------
    plan : uint8 array (z, x)
        AIR passages, WALL elsewhere (dead blocks as ``fill`` if one was given).
    passages : bool array (z, x)
        The carved blocks.
    dead : bool array (z, x)
        Solid blocks whose four neighbours are all solid blocks of the plan (see the module
        docstring).
    dead_share : float
        Dead blocks / solid blocks, in [0, 1] (0 when nothing is solid).
    root : tuple of int
        ``(z, x)`` of the block carving started from.
    ordering : str
        The ordering spec used.
    order : int64 array (z, x) or None
        With ``record_order``: the step at which each passage block was carved (root 0), -1 for
        solid blocks — for animations and for checking the carving rule.
    """

    plan: np.ndarray
    passages: np.ndarray
    dead: np.ndarray
    dead_share: float
    root: tuple[int, int]
    ordering: str
    order: np.ndarray | None = None

    @property
    def open_count(self) -> int:
        """Number of passage blocks."""
        return int(np.count_nonzero(self.passages))


def _size(value, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise BlockmazeError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return int(value)


def relaxed_layout(length_blocks: int, width_blocks: int, ordering: str = "backtracker",
                   rng: np.random.Generator | int | None = None, border: bool = True,
                   fill: int | None = None, record_order: bool = False) -> RelaxedLayout:
    """A relaxed maze plan ``length_blocks`` (z) by ``width_blocks`` (x), with its dead-block report.

    ``ordering`` is ``backtracker``, ``prim`` or ``growing-tree[:R|newest|random|oldest]``;
    ``border`` keeps the outer ring solid (then both sizes must be >= 3); ``fill`` is a Material to
    put in the dead blocks instead of WALL (None leaves them WALL; the mask is returned either way);
    ``record_order`` also returns the carving step of every passage block. A fill is never beside a
    passage, so even a non-solid one only makes sealed pockets; note that :func:`extrude` stands
    up only solid materials (WALL, FLOOR, ROOF) and leaves other ones as air above the floor.
    The root is drawn uniformly among the carvable blocks, then the kernel draws from the same
    Generator: a seed gives the same plan every time.

    Example
    -------
    >>> a = relaxed_layout(8, 12, "prim", rng=5, fill=Material.LIGHT)
    >>> b = relaxed_layout(8, 12, "prim", rng=5)
    >>> bool((a.plan[~a.dead] == b.plan[~b.dead]).all()), bool((a.plan[a.dead] == Material.LIGHT).all())
    (True, True)
    """
    minimum = 3 if border else 1
    width = _size(width_blocks, "width in blocks" + (" (with a solid border)" if border else ""), minimum)
    length = _size(length_blocks, "length in blocks" + (" (with a solid border)" if border else ""), minimum)
    mode, ratio = parse_ordering(ordering)
    if fill is not None:
        try:
            fill = Material(fill)
        except ValueError:
            raise BlockmazeError(
                f"fill must be a Material value or None, got {fill!r}"
            ) from None
    rng = as_generator(rng)
    padded = (length + 2) * (width + 2)
    index_type = np.int32 if padded < np.iinfo(np.int32).max else np.int64
    ensure_memory(padded * (2 + np.dtype(index_type).itemsize + 8 * record_order) + 2 * length * width,
                  f"a {width}x{length}-block relaxed plan")
    state = np.full((length + 2, width + 2), OUTSIDE, dtype=np.uint8)
    inner = 2 if border else 1
    state[inner:-inner, inner:-inner] = CLOSED
    count = np.zeros_like(state)
    span_z, span_x = length + 2 - 2 * inner, width + 2 - 2 * inner
    pick = int(rng.random() * (span_z * span_x))
    root_z, root_x = inner + pick // span_x, inner + pick % span_x
    active = np.empty(padded, dtype=index_type)
    order = np.full(state.shape if record_order else 1, -1, dtype=np.int64)
    relaxed_kernel(state.reshape(-1), count.reshape(-1), width + 2, root_z * (width + 2) + root_x,
                   mode, ratio, active, order.reshape(-1), rng)
    opened = state[1:-1, 1:-1] != CLOSED
    opened &= state[1:-1, 1:-1] != OUTSIDE
    plan = np.where(opened, np.uint8(Material.AIR), np.uint8(Material.WALL))
    dead = ~opened & (count[1:-1, 1:-1] == 0)
    dead[[0, -1], :] = False  # the plan's edge shows its outer face
    dead[:, [0, -1]] = False
    solid = plan.size - int(np.count_nonzero(opened))
    share = float(np.count_nonzero(dead)) / solid if solid else 0.0
    if fill is not None:
        plan[dead] = fill
    steps = order[1:-1, 1:-1].copy() if record_order else None
    return RelaxedLayout(plan, opened, dead, share, (root_z - 1, root_x - 1), ordering, steps)


def relaxed_plan(length_blocks: int, width_blocks: int, ordering: str = "backtracker",
                 rng: np.random.Generator | int | None = None, border: bool = True,
                 fill: int | None = None) -> np.ndarray:
    """A relaxed maze plan ``(z, x)``: one tree of 1-block passages; see :func:`relaxed_layout`.

    Example
    -------
    >>> relaxed_plan(3, 5, rng=0).tolist()   # one row of interior: a single corridor
    [[1, 1, 1, 1, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]]
    """
    return relaxed_layout(length_blocks, width_blocks, ordering, rng, border, fill).plan
