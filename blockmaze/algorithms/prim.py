"""Prim's algorithm, true and simplified: the maze grows outwards from one random cell.

``prim`` is true Prim: every edge carries a random weight, and the tree always grows through the
cheapest edge leaving it, so the maze is the minimum spanning tree of those weights. Weights are
drawn lazily, each at the moment its edge first touches the tree (the moment its first cell
joins); as they are independent, that is the same as drawing them all up front, but needs no
weight table. The edges leaving the tree wait in a binary heap, fronted by buckets that keep the
dear edges out of it (see :func:`prim_kernel`). The maze is the same kind of tree Kruskal's
algorithm makes (the minimum spanning tree of random weights): many short dead ends.

``prim-simplified`` keeps a set of frontier cells (unvisited cells next to the tree), joins a
uniformly random one to a uniformly random neighbour already in the tree, and adds its unvisited
neighbours to the frontier. Its mazes radiate from the start cell with even more dead ends and
shorter paths than true Prim's.

Both run on any grid kind and mask: they only read the neighbour table.
"""

from __future__ import annotations

from ..support.kernels import kernel
import numpy as np

from ..grids import Grid
from . import register
from .common import (NO_PARENT, carve_order, cell_at, cells_of, links_from_parents, note,
                     random_enabled_cell, walk_layout)

_LOW = (1 << 32) - 1  # the low half of a heap key: the cell
_WEIGHTS = (1 << 31) - 1  # weights are whole numbers below this (int32 max)
_BUCKET_BITS = 12  # the queue's buckets: the weight's top 12 bits
_BUCKETS = 1 << _BUCKET_BITS
_SHIFT = 31 - _BUCKET_BITS  # a weight's bucket is weight >> _SHIFT
_CHUNK = 16  # keys per chunk of a bucket
_HEAP_LIMIT = 8192  # heap size that makes the queue move keys back to buckets


@kernel(views=True)
def _heap_push(heap, size, key):
    """Add ``key`` to the binary min-heap ``heap[:size]`` (the caller makes room)."""
    i = size
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] <= key:
            break
        heap[i] = heap[up]
        i = up
    heap[i] = key


@kernel(views=True)
def _heap_pop(heap, size):
    """Fill the hole ``heap[0]`` left by taking the top; ``size`` is the size without it.

    The hole goes down to a leaf along the smaller children, one comparison a level and no
    branch to mispredict; the former last key then climbs from there (rarely far: it is large).
    """
    last = heap[size]
    i = 0
    child = 1
    while child + 1 < size:
        child += heap[child + 1] < heap[child]
        heap[i] = heap[child]
        i = child
        child = 2 * i + 1
    if child < size:
        heap[i] = heap[child]
        i = child
    while i > 0:
        up = (i - 1) >> 1
        if heap[up] <= last:
            break
        heap[i] = heap[up]
        i = up
    heap[i] = last


@kernel(views=True)
def _heap_sift_down(heap, size, i, key):
    """Put ``key`` at slot ``i`` of ``heap[:size]`` and move it down to its place."""
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] >= key:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = key


@kernel
def _grown(array, size):
    """``array`` with room for ``size`` more items (capacity doubled until it fits)."""
    capacity = array.shape[0]
    while capacity < array.shape[0] + size:
        capacity *= 2
    bigger = np.empty(capacity, dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@kernel(views=True)
def _spill(chunks, next_chunk, head, fill, spare, bucket, key):
    """Add ``key`` to ``bucket``'s chain of chunks (the caller makes sure a chunk is free).

    ``spare[0]`` heads the list of freed chunks, ``spare[1]`` counts the chunks ever used.
    """
    f = fill[bucket]
    if head[bucket] < 0 or f == _CHUNK:
        c = spare[0]
        if c >= 0:
            spare[0] = next_chunk[c]
        else:
            c = spare[1]
            spare[1] += 1
        next_chunk[c] = head[bucket]
        head[bucket] = c
        f = 0
    chunks[head[bucket] * _CHUNK + f] = key
    fill[bucket] = f + 1


@kernel(views=True)
def prim_kernel(neighbors, opposite, start, rng, weights, order):
    """Links of the minimum spanning tree of random edge weights over ``start``'s region.

    Each edge's weight is a whole number in [0, 2**31 - 1) drawn when its first cell joins the
    tree. Every cell next to the tree keeps its cheapest edge to it so far (``best``, and
    ``back``, that edge's direction seen from the cell); ``best`` is -1 for a cell in the tree
    and in its extra entry n, read for a missing neighbour (-1). Each improvement queues the key
    ``weight << 32 | cell``; keys that were improved on are skipped when they come out.
    Equal weights go to the lower cell index. If ``weights`` has rows (an int64 ``(n, k)`` array),
    each drawn weight is written to both sides of its edge there, for tests.

    The queue is a binary heap fronted by buckets on the weight's top bits: the heap holds the
    keys of buckets up to ``level``, higher keys wait unsorted in their bucket (chunks of
    ``_CHUNK`` keys chained per bucket). When the heap runs dry the next bucket moves into it;
    when it grows past ``limit`` while its cheapest key lies in a lower bucket, ``level`` drops
    to that bucket and the heap's higher keys go back to their buckets. The heap so stays small
    and in cache, while most keys (the dear edges the tree never takes) are only written once.
    Keys come out in exactly the order of one big heap.
    """
    n, k = neighbors.shape
    record = weights.shape[0] > 0
    best = np.full(n + 1, _WEIGHTS, dtype=np.int32)
    best[n] = -1  # a missing neighbour (-1) reads this entry: never a candidate
    back = np.full(n, NO_PARENT, dtype=np.uint8)
    heap = np.empty(1024, dtype=np.int64)
    chunks = np.empty(1024 * _CHUNK, dtype=np.int64)
    next_chunk = np.empty(1024, dtype=np.int32)
    head = np.full(_BUCKETS, -1, dtype=np.int32)
    fill = np.zeros(_BUCKETS, dtype=np.int32)
    spare = np.array([-1, 0], dtype=np.int64)
    level = 0
    limit = _HEAP_LIMIT
    t = 0
    heap[0] = start  # weight 0: the start comes out first
    size = 1
    while True:
        if size == 0:  # the heap ran dry: move the next waiting bucket into it
            level += 1
            while level < _BUCKETS and head[level] < 0:
                level += 1
            if level == _BUCKETS:
                break
            c = head[level]
            count = fill[level]
            while c >= 0:
                for i in range(c * _CHUNK, c * _CHUNK + count):
                    key = chunks[i]
                    cell = key & _LOW
                    if best[cell] == key >> 32:  # else improved on, or in the tree
                        if size == heap.shape[0]:
                            heap = _grown(heap, 1)
                        _heap_push(heap, size, key)
                        size += 1
                following = next_chunk[c]
                next_chunk[c] = spare[0]
                spare[0] = c
                c = following
                count = _CHUNK
            head[level] = -1
            fill[level] = 0
            continue
        key = heap[0]
        size -= 1
        _heap_pop(heap, size)
        cell = key & _LOW
        if best[cell] < 0:
            continue
        best[cell] = -1
        if back[cell] != NO_PARENT:  # the cheapest edge to the tree joins it now
            t = note(order, t, cell, back[cell])
        for d in range(k):
            nb = neighbors[cell, d]
            known = best[nb]
            if known < 0:
                continue
            w = np.int64(rng.random() * _WEIGHTS)
            if record:
                weights[cell, d] = w
                weights[nb, opposite[d]] = w
            if w >= known:
                continue
            best[nb] = w
            back[nb] = opposite[d]
            key = (w << 32) | nb
            bucket = w >> _SHIFT
            if bucket > level:
                if spare[0] < 0 and spare[1] == next_chunk.shape[0]:
                    next_chunk = _grown(next_chunk, 1)
                    chunks = _grown(chunks, chunks.shape[0])
                _spill(chunks, next_chunk, head, fill, spare, bucket, key)
                continue
            if size == heap.shape[0]:
                heap = _grown(heap, 1)
            _heap_push(heap, size, key)
            size += 1
            if size <= limit:
                continue
            lowest = heap[0] >> (32 + _SHIFT)
            if lowest == level:  # the current bucket alone is this big: let the heap grow
                limit *= 2
                continue
            # lower the level to the cheapest key's bucket; higher keys go back to buckets
            room = size - (next_chunk.shape[0] - spare[1])
            if room > 0:
                next_chunk = _grown(next_chunk, room)
                chunks = _grown(chunks, next_chunk.shape[0] * _CHUNK - chunks.shape[0])
            kept = 0
            for i in range(size):
                key = heap[i]
                bucket = key >> (32 + _SHIFT)
                if bucket > lowest:
                    _spill(chunks, next_chunk, head, fill, spare, bucket, key)
                else:
                    heap[kept] = key
                    kept += 1
            size = kept
            for i in range(size // 2 - 1, -1, -1):
                _heap_sift_down(heap, size, i, heap[i])
            level = lowest
            limit = _HEAP_LIMIT
    return links_from_parents(neighbors, opposite, back)


@kernel(views=True)
def simplified_prim_kernel(neighbors, strides, width, state, start, opposite, rng, order):
    """Each position's direction back to its parent in a simplified-Prim tree over ``start``'s
    region (``NO_PARENT`` for none).

    The tree grows over the positions of :func:`~.common.walk_layout`: a position's neighbour is
    ``position + strides[d]`` on a square grid, ``neighbors[cell, d]`` elsewhere. ``state`` is 0
    for an unvisited cell, 1 for a frontier cell, 2 for a cell in the tree, 3 for a position that
    is neither (the frame, a disabled cell, the entry a missing neighbour -1 wraps around to).
    Frontier cells sit in ``frontier[:size]``; the chosen one is replaced by the last, so taking it
    is O(1).
    """
    k = opposite.shape[0]
    strided = strides.shape[0] > 0
    back = np.full(state.shape[0], NO_PARENT, dtype=np.uint8)
    frontier = np.empty(state.shape[0], dtype=np.int32)
    in_tree = np.empty(k, dtype=np.int64)
    size = 0
    cell = start
    t = 0
    while True:
        state[cell] = 2
        for d in range(k):
            nb = cell + strides[d] if strided else neighbors[cell, d]
            if state[nb] == 0:
                state[nb] = 1
                frontier[size] = nb
                size += 1
        if size == 0:
            break
        i = int(rng.random() * size)
        cell = frontier[i]
        size -= 1
        frontier[i] = frontier[size]
        count = 0
        for d in range(k):
            if state[cell + strides[d] if strided else neighbors[cell, d]] == 2:
                in_tree[count] = d
                count += 1
        back[cell] = in_tree[int(rng.random() * count)] if count > 1 else in_tree[0]
        if order.shape[0]:
            t = note(order, t, cell_at(cell, width), back[cell])
    return back


@register("prim")
def carve(grid: Grid, rng: np.random.Generator, option: str | None = None,
          order: np.ndarray | None = None) -> np.ndarray:
    """Links of a true-Prim maze over ``grid``, grown from a random enabled cell.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve(square_grid(3, 3), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 9 cells has 8 passages
    8
    """
    start = random_enabled_cell(grid, rng)
    no_record = np.empty((0, grid.degree), dtype=np.int64)
    return prim_kernel(grid.neighbors, grid.opposite, start, rng, no_record,
                       carve_order(grid, False) if order is None else order)


@register("prim-simplified")
def carve_simplified(grid: Grid, rng: np.random.Generator, option: str | None = None,
                     order: np.ndarray | None = None) -> np.ndarray:
    """Links of a simplified-Prim maze over ``grid``, grown from a random enabled cell.

    Example
    -------
    >>> from blockmaze.grids import square_grid
    >>> links = carve_simplified(square_grid(3, 3), np.random.default_rng(0))
    >>> int(links.sum()) // 2   # a spanning tree of 9 cells has 8 passages
    8
    """
    strides, width, visited, start = walk_layout(grid, random_enabled_cell(grid, rng))
    back = simplified_prim_kernel(grid.neighbors, strides, width, visited * np.uint8(3), start,
                                  grid.opposite, rng, carve_order(grid, False) if order is None else order)
    return links_from_parents(grid.neighbors, grid.opposite, cells_of(back, width))
