"""A volume's surface as chunks of shared-vertex meshes: one :class:`Part` per chunk and material.

The volume is cut into boxes of ``chunk`` blocks along each axis (0: one box, the whole volume).
Each box is meshed on its own -- its neighbours' blocks only hide faces -- so memory is bounded by
the box, and every part is written as soon as it is made. Vertices are shared where position and
normal agree (and so the UV, a function of both): flat shading stays exact, and each flat region
of a part is one connected piece.

Watertightness with chunks: in a watertight mesh, edges lying in a face where two chunks meet are
split at every lattice point, on both sides, so the parts of all chunks together have no
T-junction and, merged by position, form the same closed, manifold surface as the unchunked mesh
(of more triangles: rectangles end at chunk borders). A single part is not closed on its own: its
surface is cut open where the solid continues into the next chunk (or where another material
takes over), as any render chunk is.

Where two solid cells touch along an edge only (the two cells beside that edge open), four faces
would meet at the edge: closed but not 2-manifold, and tools that merge vertices by position (STL
readers, trimesh, slicers) call it open. Mazes on a 2n+1 grid never have such contacts; caves
(diagonal walls), stairwells under the next level's floor and steps beside pillars do. A
watertight mesh is therefore made of a slightly changed solid: such volumes go on the half-block
lattice, where :func:`seal_edges` fills one half-block cell beside each such edge (under an
overhang, never on a tread). The raw mesh (``watertight=False``) keeps the solid as it is.

STAIRS blocks with a facing (:func:`blockmaze.blocks.orientation.stair_facing`) are drawn as steps:
a lower half slab and an upper half toward the facing, and a riser under the next step of a
flight that stands over air (:func:`step_shapes`), so steps meet face to face. Volumes with such
stairs are meshed on a half-block lattice (``Part.scale`` 2); the others on the block lattice
(scale 1).

Example
-------
>>> import numpy as np
>>> parts = list(chunk_parts(np.ones((1, 1, 4), np.uint8), chunk=2))   # two halves, open at the cut
>>> [(p.origin, len(p.faces), len(p.positions)) for p in parts]
[((0, 0, 0), 10, 20), ((2, 0, 0), 10, 20)]
"""

from __future__ import annotations

import math
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ...support.kernels import kernel
import numpy as np

from ...errors import BlockmazeError, ParameterError
from ...materials import Material
from .greedy import Quads, Surface, greedy_quads, triangulate, triangulate_together, vectorized
from .vectorized import greedy_quads_numpy_many
from ..defaults import CHUNK

__all__ = ["Part", "chunk_parts", "check_chunk", "step_scale", "step_shapes", "uv_of", "DEFAULT_CHUNK"]

# Blocks per chunk side by default, by measurement (100x100 and 1000x1000 mazes, walls 3 high):
# chunk 32 / 64 / 96 / 128 / 256 / none gave 2.08 / 1.87 / 1.81 / 1.74 / 2.01 / 2.01 MB and
# 3.9 / 2.9 / 2.4 / 2.3 / 2.2 / 4.2 CPU s: 128 is the smallest file (parts of a maze chunk still
# fit 16-bit indices; 256 does not), at a few per cent more triangles than no chunks.
DEFAULT_CHUNK = CHUNK


@dataclass(frozen=True)
class Part:
    """One material of one chunk, vertices shared.

    ``positions`` int32 (V, 3): lattice points (x, y, z) relative to ``origin``, in 1/``scale``
    blocks; ``normals`` int8 (V, 3), axis-aligned unit vectors; ``faces`` uint32 (F, 3),
    counter-clockwise seen from outside, indices into this part's vertices. ``chunk`` is the chunk's
    index (x, y, z), ``origin`` its corner in blocks.
    """

    material: int
    chunk: tuple[int, int, int]
    origin: tuple[int, int, int]
    scale: int
    positions: np.ndarray
    normals: np.ndarray
    faces: np.ndarray

    def points(self) -> np.ndarray:
        """float64 (V, 3): the vertices in blocks, in the volume's frame."""
        return self.positions / self.scale + np.array(self.origin, np.float64)


def check_chunk(chunk) -> int:
    """A chunk size (blocks, >= 1; 0 for none), else a BlockmazeError.

    >>> check_chunk(64), check_chunk(0)
    (64, 0)
    """
    if isinstance(chunk, bool) or not isinstance(chunk, (int, np.integer)) or chunk < 0:
        raise BlockmazeError(f"chunk must be a whole number of blocks >= 1 (or 0: no chunks), got {chunk!r}")
    if chunk > 16384:
        raise BlockmazeError(f"chunk must be at most 16384 blocks (16-bit vertex positions), got {chunk}")
    return int(chunk)


MAX_CHUNKS = 1 << 16  # a glTF node (and its mesh) each: past this a scene only gets slower


def check_chunk_count(shape: tuple[int, int, int], chunk: int) -> None:
    """Refuse, before any meshing, a chunk size that cuts a (y, z, x) volume into more than
    :data:`MAX_CHUNKS` chunks (a node each), naming the least size that does not.

    >>> check_chunk_count((4, 201, 201), 1)
    Traceback (most recent call last):
    ...
    blockmaze.errors.ParameterError: chunk=1 cuts this 201x4x201-block volume into 161604 chunks (a node each, and more a material); at most 65536: choose chunk=2 or more (or chunk=0: no chunks)
    """
    def count(side: int) -> int:
        return math.prod(-(-n // side) for n in shape)

    if chunk and count(chunk) > MAX_CHUNKS:
        least = next(side for side in range(chunk + 1, max(shape) + 1) if count(side) <= MAX_CHUNKS)
        y, z, x = shape
        raise ParameterError(f"{{chunk={chunk}}} cuts this {x}x{y}x{z}-block volume into "
                             f"{count(chunk)} chunks (a node each, and more a material); at most "
                             f"{MAX_CHUNKS}: choose {{chunk={least}}} or more (or {{chunk=0}}: "
                             "no chunks)")


def step_scale(blocks: np.ndarray, seal: bool = True) -> int:
    """2 where the volume holds a STAIRS block (drawn as a step on a half-block lattice) or, to
    ``seal`` them, blocks touching along an edge only (see :func:`seal_edges`), else 1.

    >>> step_scale(np.ones((1, 1, 1), np.uint8)), step_scale(np.full((1, 1, 1), Material.STAIRS, np.uint8))
    (1, 2)
    """
    blocks = np.asarray(blocks, np.uint8)
    return 2 if (blocks == Material.STAIRS).any() or (seal and touches_by_edge(blocks)) else 1


RISER = 4  # added to a step's facing (see step_shapes) where a riser goes under the next step


def step_shapes(blocks: np.ndarray) -> np.ndarray:
    """uint8 (y, z, x): each STAIRS block's :func:`~blockmaze.blocks.orientation.stair_facing`,
    plus ``RISER`` where the next step up its flight stands over air: under that step, the upper
    quarter of the air block beside this one is drawn as a riser, since a step's tread would
    otherwise touch the next step along an edge only, four faces on one edge (not 2-manifold).
    NONE elsewhere. Compute it on the whole volume, also when meshing a part of it.

    >>> v = np.zeros((4, 1, 3), np.uint8); v[0] = 2
    >>> v[1, 0, 0], v[2, 0, 1], v[2, 0, 2] = 8, 8, 1          # two steps rising east, onto a wall
    >>> step_shapes(v)[1:3, 0, :2].tolist()                   # east (1), and a riser under the second
    [[5, 255], [255, 1]]
    """
    from ...blocks.orientation import STEPS, stair_facing

    shapes = stair_facing(blocks)
    layers, depth, width = blocks.shape
    for direction, (dz, dx) in enumerate(STEPS):
        y, z, x = np.nonzero(shapes == direction)
        nz, nx = z + dz, x + dx
        ok = (y + 1 < layers) & (0 <= nz) & (nz < depth) & (0 <= nx) & (nx < width)
        y, z, x, nz, nx = y[ok], z[ok], x[ok], nz[ok], nx[ok]
        riser = (blocks[y + 1, nz, nx] == Material.STAIRS) & (blocks[y, nz, nx] == Material.AIR)
        shapes[y[riser], z[riser], x[riser]] += RISER
    return shapes


def _steps(blocks: np.ndarray, shapes: np.ndarray, seal: bool = True) -> np.ndarray:
    """The volume on a half-block lattice (each block 2x2x2), stair blocks cut into steps, with
    the risers of :func:`step_shapes`, and edge-only contacts sealed (:func:`seal_edges`)."""
    from ...blocks.orientation import STEPS

    fine = blocks.repeat(2, 0).repeat(2, 1).repeat(2, 2)
    depth, width = blocks.shape[1:]
    for shape in range(2 * RISER):
        y, z, x = np.nonzero(shapes == shape)
        if not len(y):
            continue
        dz, dx = STEPS[shape % RISER]
        # the upper half of a stair, on the side away from its facing, is open
        _fill_half(fine, y, z, x, dz, dx, Material.AIR)
        if shape >= RISER:  # the riser under the next step, on the side toward this one
            nz, nx = z + dz, x + dx
            inside = (0 <= nz) & (nz < depth) & (0 <= nx) & (nx < width)
            _fill_half(fine, y[inside], nz[inside], nx[inside], dz, dx, Material.STAIRS)
    return seal_edges(fine) if seal else fine


# Passes of seal_edges: over 5 dungeon styles x 1-3 levels x 20 seeds, 297 volumes needed one
# and 3 needed two (bench/bench_watertight.py counts what is left open); of 3000 random volumes
# up to 5x5x5 blocks, 4 needed three. A chunk's margin, in blocks, covers the cells the passes
# look at (SEAL_PASSES + 1 half blocks; risers from farther stairs go on their far half).
SEAL_PASSES = 4
_SEAL_MARGIN = 3


def _window(shape, a: int, b: int, da: int, db: int) -> tuple[slice, ...]:
    """The slices of the cells at offset ``(da, db)`` in every 2x2 window of axes ``a``, ``b``."""
    offset = {a: da, b: db}
    return tuple(slice(offset[k], n - 1 + offset[k]) if k in offset else slice(None)
                 for k, n in enumerate(shape))


def seal_edges(volume: np.ndarray) -> np.ndarray:
    """``volume`` (a half-block lattice) with every edge-only contact closed: where two solid
    cells touch along an edge and the two cells beside it are air (four faces on one edge, not
    2-manifold), one of those air cells takes the material of its solid neighbour in the same
    layer -- the lower one where the edge is horizontal, so what is filled hangs under a ceiling,
    never on a tread. The filled cell is a half-block corner, so a gap that was closed to a walker
    stays closed and a passage beside it keeps half a block. A fill can leave a new contact next
    to it, so up to ``SEAL_PASSES`` passes, each decided from the cells around each edge only: a
    cell's result depends on cells at most ``SEAL_PASSES + 1`` half blocks away, so chunks
    meshed apart with a margin of ``_SEAL_MARGIN`` blocks agree.

    >>> v = np.zeros((2, 1, 2), np.uint8); v[0, 0, 0] = v[1, 0, 1] = 1   # a horizontal edge
    >>> seal_edges(v)[:, 0].tolist()
    [[1, 1], [0, 1]]
    >>> v = np.zeros((1, 2, 2), np.uint8); v[0, 0, 0] = v[0, 1, 1] = 1   # a vertical edge
    >>> seal_edges(v)[0].tolist()
    [[1, 1], [0, 1]]
    """
    out = np.pad(volume, 1)  # the outside is air
    for _ in range(SEAL_PASSES):
        padded, sealed = out, True
        out = padded.copy()
        solid = padded != 0
        for a, b in ((0, 1), (0, 2), (1, 2)):  # the window's plane; y (axis 0) first: lower cell first
            s00, s01, s10, s11 = (solid[_window(solid.shape, a, b, da, db)]
                                  for da, db in ((0, 0), (0, 1), (1, 0), (1, 1)))
            for pattern, source, target in ((s00 & s11 & ~s01 & ~s10, (0, 0), (0, 1)),
                                            (s01 & s10 & ~s00 & ~s11, (0, 1), (0, 0))):
                if pattern.any():
                    sealed = False
                    into = out[_window(out.shape, a, b, *target)]
                    into[pattern] = padded[_window(padded.shape, a, b, *source)][pattern]
        if sealed:
            break
    return out[1:-1, 1:-1, 1:-1]


def touches_by_edge(blocks: np.ndarray) -> bool:
    """True where two solid blocks touch along an edge only (see :func:`seal_edges`): such a
    volume is meshed on the half-block lattice too.

    >>> v = np.zeros((1, 2, 2), np.uint8); v[0, 0, 0] = v[0, 1, 1] = 1
    >>> touches_by_edge(v), touches_by_edge(np.ones((2, 2, 2), np.uint8))
    (True, False)
    """
    if not vectorized(blocks.size):
        return bool(_touches_by_edge(blocks))
    solid = np.asarray(blocks) != 0
    for a, b in ((0, 1), (0, 2), (1, 2)):
        s00 = solid[_window(solid.shape, a, b, 0, 0)]
        s01 = solid[_window(solid.shape, a, b, 0, 1)]
        s10 = solid[_window(solid.shape, a, b, 1, 0)]
        s11 = solid[_window(solid.shape, a, b, 1, 1)]
        if ((s00 == s11) & (s01 == s10) & (s00 != s01)).any():
            return True
    return False


@kernel
def _touches_by_edge(blocks):
    """:func:`touches_by_edge` compiled, stopping at the first pair found."""
    ny, nz, nx = blocks.shape
    for y in range(ny):
        for z in range(nz):
            for x in range(nx):
                s00 = blocks[y, z, x] != 0
                if y + 1 < ny and z + 1 < nz:  # the window in the (y, z) plane, and so on
                    s01, s10, s11 = blocks[y, z + 1, x] != 0, blocks[y + 1, z, x] != 0, blocks[y + 1, z + 1, x] != 0
                    if s00 == s11 and s01 == s10 and s00 != s01:
                        return True
                if y + 1 < ny and x + 1 < nx:
                    s01, s10, s11 = blocks[y, z, x + 1] != 0, blocks[y + 1, z, x] != 0, blocks[y + 1, z, x + 1] != 0
                    if s00 == s11 and s01 == s10 and s00 != s01:
                        return True
                if z + 1 < nz and x + 1 < nx:
                    s01, s10, s11 = blocks[y, z, x + 1] != 0, blocks[y, z + 1, x] != 0, blocks[y, z + 1, x + 1] != 0
                    if s00 == s11 and s01 == s10 and s00 != s01:
                        return True
    return False


def _fill_half(fine, y, z, x, dz, dx, value) -> None:
    """Set the upper half of blocks ``(y, z, x)`` on the half-block lattice ``fine``, on their
    side away from direction ``(dz, dx)``, to ``value``."""
    zs = [2 * z + (dz < 0)] if dz else [2 * z, 2 * z + 1]
    xs = [2 * x + (dx < 0)] if dx else [2 * x, 2 * x + 1]
    for zz in zs:
        for xx in xs:
            fine[2 * y + 1, zz, xx] = value


@kernel(nogil=True, small=1 << 21)  # a few table look-ups a vertex
def _weld(vertices, normals, faces, v_bounds, f_bounds, size_x, size_y, size_z, table, stamps, stamp):
    """Share vertices with the same position and normal within each group: the new positions
    (int32), normals (int8), faces (indices from each group's first vertex) and group bounds.
    ``table``/``stamps`` are scratch (an entry counts where its stamp is this group's); returns
    the next free stamp too."""
    n = vertices.shape[0]
    positions = np.empty((n, 3), dtype=np.int32)
    out_normals = np.empty((n, 3), dtype=np.int8)
    remap = np.empty(n, dtype=np.int64)
    out_faces = np.empty_like(faces)
    starts = np.empty(len(v_bounds), dtype=np.int64)
    count = 0
    for g in range(len(v_bounds) - 1):
        base = count
        starts[g] = base
        stamp += 1
        for v in range(v_bounds[g], v_bounds[g + 1]):
            x, y, z = int(vertices[v, 0]), int(vertices[v, 1]), int(vertices[v, 2])
            nx, ny, nz = normals[v, 0], normals[v, 1], normals[v, 2]
            if nx != 0:
                code = 1 if nx > 0 else 0
            elif ny != 0:
                code = 3 if ny > 0 else 2
            else:
                code = 5 if nz > 0 else 4
            key = ((code * (size_y + 1) + y) * (size_z + 1) + z) * (size_x + 1) + x
            if stamps[key] != stamp:
                stamps[key] = stamp
                table[key] = count - base
                positions[count, 0] = x
                positions[count, 1] = y
                positions[count, 2] = z
                out_normals[count, 0] = np.int8(nx)
                out_normals[count, 1] = np.int8(ny)
                out_normals[count, 2] = np.int8(nz)
                count += 1
            remap[v] = table[key]
        for f in range(f_bounds[g], f_bounds[g + 1]):
            for k in range(3):
                out_faces[f, k] = remap[faces[f, k]]
    starts[len(v_bounds) - 1] = count
    return positions[:count], out_normals[:count], out_faces, starts, stamp


def _weld_sorted(vertices, normals, faces, v_bounds, f_bounds, size_x, size_y, size_z):
    """:func:`_weld` by sorting keys, for boxes too big for its table: the same result (vertices in
    first-use order), memory by the vertices, not the box."""
    axis = np.argmax(np.abs(normals), axis=1)
    code = 2 * axis + (normals[np.arange(len(normals)), axis] > 0)
    xyz = vertices.astype(np.int64)
    keys = ((code * (size_y + 1) + xyz[:, 1]) * (size_z + 1) + xyz[:, 2]) * (size_x + 1) + xyz[:, 0]
    positions, out_normals, out_faces = [], [], np.empty_like(faces)
    starts = np.zeros(len(v_bounds), dtype=np.int64)
    for g in range(len(v_bounds) - 1):
        v0, v1, f0, f1 = v_bounds[g], v_bounds[g + 1], f_bounds[g], f_bounds[g + 1]
        _, first, inverse = np.unique(keys[v0:v1], return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        out_faces[f0:f1] = rank[inverse.reshape(-1)][faces[f0:f1].astype(np.int64) - v0]
        positions.append(xyz[v0 + first[order]].astype(np.int32))
        out_normals.append(normals[v0 + first[order]].astype(np.int8))
        starts[g + 1] = starts[g] + len(order)
    return np.concatenate(positions), np.concatenate(out_normals), out_faces, starts


_TABLE_LIMIT = 1 << 22  # weld through a table of at most this many entries, else by sorting


def _boxes(shape: tuple[int, int, int], chunk: int):
    size_y, size_z, size_x = shape
    step = chunk or max(shape)
    for y0 in range(0, size_y, step):
        for z0 in range(0, size_z, step):
            for x0 in range(0, size_x, step):
                yield (y0, z0, x0, min(y0 + step, size_y), min(z0 + step, size_z),
                       min(x0 + step, size_x))


_local = threading.local()
_WINDOW = 8  # chunks meshed ahead of the one being written
_THREADS = 2  # threads meshing chunks (1: in the caller's thread)


def _mesh_box(blocks, facing, scale, chunk, step, box, only=None) -> list[Part]:
    """The parts of one chunk box ``(y0, z0, x0, y1, z1, x1)``, in material order (material
    ``only``'s alone, if given)."""
    sub, inner = _box_volume(blocks, facing, scale, box, only)
    quads = greedy_quads(sub, inner, _local.vectorized)
    if not len(quads):
        return []
    surface = triangulate(quads, watertight=_local.watertight, numpy_form=_local.vectorized,
                          cuts=_cuts(box, blocks.shape, chunk))
    return _box_parts(quads, surface, scale, step, box)


def _cuts(box, shape, chunk) -> tuple[bool, ...]:
    """Which faces of a chunk box meet another chunk: (x0, x1, y0, y1, z0, z1)."""
    y0, z0, x0, y1, z1, x1 = box
    size_y, size_z, size_x = shape
    return (x0 > 0, x1 < size_x, y0 > 0, y1 < size_y, z0 > 0, z1 < size_z) if chunk else (False,) * 6


def _box_volume(blocks, facing, scale, box, only):
    """``(sub, inner)``: the blocks a chunk box's surface depends on (its own and the margin
    around it that hides faces and seals), stepped at ``scale`` 2 and cut to material ``only``,
    and the box within them."""
    y0, z0, x0, y1, z1, x1 = box
    margin = _SEAL_MARGIN if scale == 2 else 1  # the neighbours' blocks that hide faces (and seal)
    low = (max(y0 - margin, 0), max(z0 - margin, 0), max(x0 - margin, 0))
    high = (y1 + margin, z1 + margin, x1 + margin)
    sub = blocks[low[0]:high[0], low[1]:high[1], low[2]:high[2]]
    inner = (y0 - low[0], z0 - low[1], x0 - low[2], y1 - low[0], z1 - low[1], x1 - low[2])
    if scale == 2:
        sub = _steps(sub, facing[low[0]:high[0], low[1]:high[1], low[2]:high[2]], _local.watertight)
        inner = tuple(2 * b for b in inner)
    if only is not None:  # cut after the steps and seals, so every cell keeps one material
        sub = np.where(sub == only, sub, np.uint8(0))
    return sub, inner


def _box_parts(quads: Quads, surface: Surface, scale, step, box) -> list[Part]:
    """A chunk box's parts from its rectangles' surface, welded material by material."""
    if not len(quads):
        return []
    y0, z0, x0 = box[:3]
    sy, sz, sx = quads.shape
    needed = 6 * (sx + 1) * (sy + 1) * (sz + 1)
    groups = surface.groups
    v_bounds = np.array([g.vertex_start for g in groups] + [groups[-1].vertex_stop], np.int64)
    f_bounds = np.array([g.face_start for g in groups] + [groups[-1].face_stop], np.int64)
    if needed > _TABLE_LIMIT or _local.vectorized:
        positions, normals, faces, starts = _weld_sorted(
            surface.vertices, surface.normals, surface.faces, v_bounds, f_bounds, sx, sy, sz)
    else:
        table = getattr(_local, "table", None)
        if table is None or len(table) < needed:
            table = _local.table = np.empty(needed, dtype=np.int64)
            _local.stamps = np.zeros(needed, dtype=np.int64)
            _local.stamp = 0
        positions, normals, faces, starts, _local.stamp = _weld(
            surface.vertices, surface.normals, surface.faces, v_bounds, f_bounds, sx, sy, sz,
            table, _local.stamps, _local.stamp)
    index = (x0 // step, y0 // step, z0 // step)
    return [Part(group.material, index, (x0, y0, z0), scale,
                 positions[starts[g]:starts[g + 1]], normals[starts[g]:starts[g + 1]],
                 faces[group.face_start:group.face_stop])
            for g, group in enumerate(groups)]


def chunk_parts(blocks: np.ndarray, chunk: int = DEFAULT_CHUNK, watertight: bool = True,
                scale: int | None = None, facing: np.ndarray | None = None,
                only: int | None = None) -> Iterator[Part]:
    """The parts of a (y, z, x) volume, chunk by chunk (x fastest, then z, then y), each chunk's
    parts in material order (see the module's description). ``scale`` defaults to
    :func:`step_scale`; ``facing`` (the stairs' shapes) to :func:`step_shapes` -- pass the
    whole volume's when meshing a part of it. With ``only`` the parts are that material's solid
    alone, as the whole volume's surface divides it (a riser is a stair's, not every material's):
    the solids of different materials never overlap. A small job (numpy form) meshes every chunk
    box in one sweep and one zip; a big one meshes chunks on two threads a few ahead of the one
    yielded (the kernels release the GIL). Neither changes the order, and so the output.

    >>> [p.material for p in chunk_parts(np.array([[[1, 2]]], np.uint8), chunk=0)]
    [1, 2]
    """
    blocks = np.asarray(blocks, dtype=np.uint8)
    chunk = check_chunk(chunk)
    scale = step_scale(blocks, seal=bool(watertight)) if scale is None else scale
    if scale == 2 and facing is None:
        facing = step_shapes(blocks)
    step = chunk or max(blocks.shape)
    boxes = list(_boxes(blocks.shape, chunk))
    numpy_form = vectorized(blocks.size)  # the whole job's size picks numpy or the kernels

    def work(box):
        _local.watertight = bool(watertight)
        _local.vectorized = numpy_form
        return _mesh_box(blocks, facing, scale, chunk, step, box, only)

    if numpy_form:  # a small job: every box's rectangles in one sweep, triangles in one zip
        _local.watertight, _local.vectorized = bool(watertight), True
        volumes = [_box_volume(blocks, facing, scale, box, only) for box in boxes]
        quads = [Quads(data, tuple(h - lo for lo, h in zip(inner[:3], inner[3:], strict=True)))
                 for (_, inner), data in zip(volumes, greedy_quads_numpy_many(volumes),
                                             strict=True)]
        surfaces = triangulate_together(quads, watertight,
                                        [_cuts(box, blocks.shape, chunk) for box in boxes])
        for box, box_quads, surface in zip(boxes, quads, surfaces, strict=True):
            yield from _box_parts(box_quads, surface, scale, step, box)
        return
    if len(boxes) < 4 or _THREADS < 2:
        for box in boxes:
            yield from work(box)
        return
    with ThreadPoolExecutor(max_workers=_THREADS) as pool:
        pending = deque(pool.submit(work, box) for box in boxes[:_WINDOW])
        for box in boxes[_WINDOW:]:
            done = pending.popleft().result()
            pending.append(pool.submit(work, box))
            yield from done
        while pending:
            yield from pending.popleft().result()


def uv_of(positions: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """World-space UVs (float32 (V, 2)) of lattice points by their normals: u, v are the point's
    coordinates in the face's plane, unmirrored seen from outside, v up (OpenGL convention).

    >>> uv_of(np.array([[1, 2, 3]]), np.array([[0, 0, 1]])).tolist()
    [[1.0, 2.0]]
    """
    x, y, z = (positions[:, k].astype(np.float32) for k in range(3))
    nx, ny, nz = (normals[:, k] for k in range(3))
    u = np.where(nx > 0, -z, np.where(nx < 0, z, np.where(nz < 0, -x, x)))
    v = np.where(ny > 0, -z, np.where(ny < 0, z, y))
    return np.ascontiguousarray(np.column_stack([u, v]), dtype=np.float32)
