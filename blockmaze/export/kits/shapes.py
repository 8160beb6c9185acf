"""The default kit's pieces for the grids whose cells are not squares (hex, triangle, upsilon,
polar), from the cells' polygons.

A piece is one cell of its name (:mod:`blockmaze.mazes.pieces`) taken back to its canonical turn:
its polygon, centred on the origin, is a floor slab with its top at y = 0 and, on each closed
side, a wall :data:`WALL` of the way to the middle thick and three blocks high. (Their walkable
floor: :func:`blockmaze.export.kits.navmesh.polygon_floor`.)

Example
-------
>>> from blockmaze import generate
>>> from blockmaze.mazes.pieces import maze_pieces
>>> pieces = maze_pieces(generate((2, 2), kind="hex", rng=1))
>>> [(material, len(faces)) for material, _, _, faces in piece_parts(pieces, pieces.names[0], 1.0)]
[(2, 20), (1, 60)]
"""

from __future__ import annotations

import numpy as np

from ...grids.geometry import cell_shapes
from ...materials import Material
from ...mazes.pieces import LEVEL_BLOCKS, PIECE_BLOCKS, Pieces

WALL = 0.2


def _to_local(points: np.ndarray, rotation: float, mirror: bool) -> np.ndarray:
    """Plan points (x east, y south) of a placed piece back in its canonical turn."""
    turn = -np.radians(rotation)
    c, s = np.cos(turn), np.sin(turn)
    x = points[:, 0] * c - points[:, 1] * s
    y = points[:, 0] * s + points[:, 1] * c
    return np.stack([-x if mirror else x, y], axis=1)


def _prism(outline: np.ndarray, bottom: float, top: float) -> tuple[np.ndarray, np.ndarray]:
    """A closed prism over a convex (x, z) outline, clockwise seen from above: vertices and
    triangles counter-clockwise from outside."""
    m = len(outline)
    low = np.column_stack([outline[:, 0], np.full(m, bottom), outline[:, 1]])
    high = np.column_stack([outline[:, 0], np.full(m, top), outline[:, 1]])
    faces = [[m + 0, m + i + 1, m + i] for i in range(1, m - 1)]  # top, facing up
    faces += [[0, i, i + 1] for i in range(1, m - 1)]  # bottom, facing down
    for i in range(m):
        j = (i + 1) % m
        faces += [[i, m + j, j], [i, m + i, m + j]]
    return np.vstack([low, high]), np.array(faces)


def piece_parts(pieces: Pieces, name: str, block_size: float, shapes=None, centres=None):
    """The default kit's piece ``name`` as (material, vertices, normals, faces) parts
    (``shapes`` and ``centres``: the grid's cell shapes and centroids, if known)."""
    shapes = cell_shapes(pieces.maze.grid) if shapes is None else shapes
    i = pieces.names.index(name)
    cell = int(pieces.cells[i])
    polygon = shapes.polygon(cell)
    centre = (shapes.centroids() if centres is None else centres)[cell]
    scale = PIECE_BLOCKS * block_size
    outline = _to_local(polygon - centre, float(pieces.rotation[i]), bool(pieces.mirror[i])) * scale
    if pieces.mirror[i]:
        outline = outline[::-1]  # (clockwise again)
    sides = shapes.sides[cell, :len(polygon)]
    if pieces.mirror[i]:
        sides = np.roll(sides[::-1], -1)
    parts = [(int(Material.FLOOR), *_prism(outline, -block_size, 0.0))]
    links = pieces.opened[i]
    walls = []
    for j, direction in enumerate(sides.tolist()):
        if direction >= 0 and links[direction]:
            continue
        a, b = outline[j], outline[(j + 1) % len(outline)]
        inward_a = a + WALL * (0 - a)
        inward_b = b + WALL * (0 - b)
        walls.append(_prism(np.array([a, b, inward_b, inward_a]), 0.0,
                            (LEVEL_BLOCKS - 1) * block_size))
    if walls:
        offsets = np.cumsum([0] + [len(v) for v, _ in walls[:-1]])
        parts.append((int(Material.WALL), np.vstack([v for v, _ in walls]),
                      np.vstack([f + o for (_, f), o in zip(walls, offsets, strict=True)])))
    return [(material, vertices.astype(np.float32), _normals(vertices, faces), faces)
            for material, vertices, faces in parts]


def _normals(vertices: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Each vertex's normal: the sum of its faces' (area-weighted), made unit length."""
    normals = np.zeros_like(vertices, dtype=np.float64)
    corner = vertices[faces]
    face = np.cross(corner[:, 1] - corner[:, 0], corner[:, 2] - corner[:, 0])
    for k in range(3):
        np.add.at(normals, faces[:, k], face)
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    return (normals / np.where(length == 0, 1, length)).astype(np.float32)
