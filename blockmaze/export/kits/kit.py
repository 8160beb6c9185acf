"""A kit: a mesh for each piece name, from the user's .glb or built from blockmaze's own voxels.

The naming rule: a kit is a glTF binary file (.glb) in which each piece is a node, or a mesh,
named as the piece (``dead-end``, ``corridor``, ``corner``, ``tee``, ``cross``; ``closed`` and the
stair pieces ``corner-up`` ... where a maze has them: :mod:`blockmaze.mazes.pieces`). A piece is
modelled in its canonical turn (its side 0, north, towards -Z; its sides clockwise seen from
above), centred on its cell at the origin, its floor's top at y = 0. A kit's cell size is the
widest piece's footprint, its level height the tallest piece's height.

The default kit is built here: each square piece a 5 x 5 tile of blocks (a wall block on each
closed side and in the corners, a floor of 3 x 3 and the open sides' middles) four blocks high
(a floor block and three of wall), meshed as blockmaze's .glb meshes are. A stair up is a ramp over
the middle block from its north edge to the next level at its south edge, and a stair down a
hole in the floor there, so a ``-updown`` cell's ramps stack. A weave crossing
(``crossing-corridor``, ``crossing-dead-end``) is a bridge, as blockmaze's weave blocks build
one with ``bridges``: its under-passage runs east-west on the floor, under a deck of the middle
3 x 3 blocks whose top is the piece's top (:data:`DECK_BLOCKS` up, 2 blocks of headroom under
it, a lintel block over the under-passage's ends), and the passage on top climbs to the deck
by a solid ramp over each of its open sides' middles (north, and south for a corridor). Other
cells than squares: their pieces are built from their polygons (:mod:`.shapes`).

Example
-------
>>> kit = default_kit(["corner", "dead-end-up"])
>>> sorted(kit.meshes), kit.cell_size, kit.level_height
(['corner', 'dead-end-up'], 5.0, 4.0)
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme, load_theme
from ...mazes.pieces import (CROSSING, DECK_BLOCKS, LEVEL_BLOCKS, PIECE_BLOCKS, SQUARE_FAMILY,
                             SQUARE_NAMES, STAIRS)
from ..meshes.common import material_color, material_name, srgb_to_linear
from ..meshes.gltf import _Buffer, _index_array

KIT_BYTES = 256 << 20  # the largest kit file read
_SIDE_NAMES = {name: bits for bits, name in SQUARE_NAMES.items()}


@dataclass
class Kit:
    """A kit's glTF parts (meshes, materials, accessors, buffer views, textures, images and
    samplers, over one binary buffer ``blob``), the mesh of each piece name, and its cell size
    and level height in metres."""

    document: dict
    blob: bytes
    meshes: dict[str, int]
    cell_size: float
    level_height: float
    names: dict[int, str] = field(default_factory=dict)

    def mesh(self, piece: str) -> int:
        """The mesh index of ``piece``, or a BlockmazeError naming what the kit lacks."""
        try:
            return self.meshes[piece]
        except KeyError:
            raise BlockmazeError(f"the kit has no piece named {piece!r} (a node or mesh of that "
                                 f"name); it has: {', '.join(sorted(self.meshes)) or 'none'}") from None


def piece_blocks(name: str) -> np.ndarray:
    """The default kit's (y, z, x) blocks of a square piece (its ramp is not a block).

    >>> piece_blocks("dead-end")[1].tolist()[0]   # the north wall, open in the middle
    [1, 0, 0, 0, 1]
    """
    if name.startswith(CROSSING) and name[len(CROSSING):] in ("corridor", "dead-end"):
        return _crossing_blocks(name[len(CROSSING):] == "corridor")
    base, stairs = name, ""
    for suffix in sorted(STAIRS.values(), key=len, reverse=True):
        if name.endswith(suffix):
            base, stairs = name[: -len(suffix)], suffix
            break
    if base not in _SIDE_NAMES:
        raise BlockmazeError(f"the default kit has no piece {name!r}: it holds square pieces "
                             f"({', '.join(_SIDE_NAMES)}, with -up, -down, -updown)")
    n, last = PIECE_BLOCKS, PIECE_BLOCKS - 1
    plan = np.zeros((n, n), np.uint8)
    plan[[0, 0, last, last], [0, last, 0, last]] = Material.WALL
    north, east, south, west = _SIDE_NAMES[base]
    plan[0, 1:last] = 0 if north else Material.WALL
    plan[1:last, last] = 0 if east else Material.WALL
    plan[last, 1:last] = 0 if south else Material.WALL
    plan[1:last, 0] = 0 if west else Material.WALL
    blocks = np.zeros((LEVEL_BLOCKS, n, n), np.uint8)
    blocks[0] = Material.FLOOR
    blocks[1:] = plan
    if "down" in stairs:
        blocks[0, n // 2, n // 2] = Material.AIR
    return blocks


def _crossing_blocks(south: bool) -> np.ndarray:
    """A crossing's blocks (see the module docstring): open north (and ``south``) on the deck,
    east and west under it; the ramps up to the deck are not blocks.

    >>> _crossing_blocks(True)[:, 2].tolist()   # a slice west-east through the middle
    [[2, 2, 2, 2, 2], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 2, 2, 2, 1]]
    """
    n, last = PIECE_BLOCKS, PIECE_BLOCKS - 1
    blocks = np.zeros((LEVEL_BLOCKS, n, n), np.uint8)
    blocks[0] = Material.FLOOR
    blocks[1:, [0, 0, last, last], [0, last, 0, last]] = Material.WALL
    blocks[DECK_BLOCKS, 1:last, 1:last] = Material.FLOOR  # the deck
    blocks[DECK_BLOCKS, 1:last, [0, last]] = Material.WALL  # lintels over the under-passage
    if not south:
        blocks[1:, last, 1:last] = Material.WALL
    return blocks


def _deck_ramps(south: bool, block_size: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The solid ramps up to a crossing's deck over its north (and ``south``) side's middle:
    a slope from the floor at the cell's edge to the deck's top a block in, and its back down
    to the deck's underside, facing the under-passage."""
    h, edge, inner = 1.5, PIECE_BLOCKS / 2, PIECE_BLOCKS / 2 - 1
    top, under = float(DECK_BLOCKS), float(DECK_BLOCKS - 1)  # (the floor's top at y 0)
    slope = np.array([[-h, 0, -edge], [h, 0, -edge], [h, top, -inner], [-h, top, -inner]])
    back = np.array([[-h, 0, -inner], [h, 0, -inner], [h, under, -inner], [-h, under, -inner]])
    rise = np.array([0, edge - inner, top])
    quads = [(slope, np.array([0, rise[1], -rise[2]]) / np.hypot(rise[1], rise[2])),
             (back, np.array([0.0, 0, 1]))]
    if south:
        quads += [(quad * [-1, 1, -1] + 0.0, normal * [-1, 1, -1] + 0.0) for quad, normal in quads]
    vertices: list[np.ndarray] = []
    normals: list[np.ndarray] = []
    faces: list[np.ndarray] = []
    for quad, normal in quads:
        a, b, c = quad[0], quad[1], quad[2]
        order = [0, 1, 2, 0, 2, 3] if np.dot(np.cross(b - a, c - a), normal) > 0 \
            else [0, 2, 1, 0, 3, 2]
        faces.append(np.array(order).reshape(2, 3) + len(vertices) * 4)
        vertices.append(quad * block_size)
        normals.append(np.tile(normal, (4, 1)))
    return (np.concatenate(vertices).astype(np.float32), np.concatenate(normals).astype(np.float32),
            np.concatenate(faces).astype(np.uint32))


def _ramp(block_size: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A two-sided ramp over the middle block, north edge at the floor, south edge a level up."""
    h = 0.5 * block_size
    top = LEVEL_BLOCKS * block_size
    corners = np.array([[-h, 0, -h], [h, 0, -h], [h, top, h], [-h, top, h]], np.float32)
    normal = np.array([0, 1, -1], np.float32) / np.sqrt(np.float32(2))
    vertices = np.concatenate([corners, corners])
    normals = np.concatenate([np.tile(normal, (4, 1)), np.tile(-normal, (4, 1))])
    faces = np.array([[0, 3, 2], [0, 2, 1], [4, 5, 6], [4, 6, 7]], np.uint32)
    return vertices, normals.astype(np.float32), faces


def _voxel_parts(name: str, block_size: float) -> list:
    """A square piece's (material, vertices, normals, faces) parts, meshed from its blocks."""
    from ..meshes.greedy import mesh_blocks

    offset = np.array([PIECE_BLOCKS / 2, 1, PIECE_BLOCKS / 2], np.float32)  # floor top at y 0
    surface = mesh_blocks(piece_blocks(name))
    parts = [(group.material, (surface.vertices[group.vertex_start:group.vertex_stop]
                               - offset) * block_size,
              surface.normals[group.vertex_start:group.vertex_stop],
              surface.faces[group.face_start:group.face_stop] - group.vertex_start)
             for group in surface.groups]
    if name.endswith(("-up", "-updown")):
        parts.append((int(Material.STAIRS), *_ramp(block_size)))
    if name.startswith(CROSSING):
        parts.append((int(Material.STAIRS), *_deck_ramps(name.endswith("corridor"), block_size)))
    return parts


def default_kit(names, theme: Theme | None = None, block_size: float = 1.0,
                pieces=None) -> Kit:
    """The default kit's pieces of ``names`` (see the module docstring), ``block_size`` metres
    a block, coloured by ``theme``; the pieces of a grid of other cells than squares are built
    from a cell of each name among ``pieces`` (:mod:`.shapes`)."""

    theme = load_theme() if theme is None else theme
    buffer = _Buffer(None)
    meshes: list[dict] = []
    used: dict[int, int] = {}
    square = pieces is None or pieces.maze.grid.kind in SQUARE_FAMILY
    if not square:
        from ...grids.geometry import cell_shapes
        from .shapes import piece_parts

        shapes = cell_shapes(pieces.maze.grid)
        centres = shapes.centroids()
    for name in sorted(set(names)):
        if square:
            parts = _voxel_parts(name, block_size)
        else:
            parts = piece_parts(pieces, name, block_size, shapes, centres)
        primitives = []
        for material, vertices, normals, faces in parts:
            vertices = np.ascontiguousarray(vertices, np.float32)
            primitives.append({
                "attributes": {"POSITION": buffer.accessor(vertices, "VEC3", with_bounds=True),
                               "NORMAL": buffer.accessor(np.ascontiguousarray(normals, np.float32),
                                                         "VEC3")},
                "indices": buffer.accessor(_index_array(faces, len(vertices)), "SCALAR",
                                           indices=True),
                "material": used.setdefault(int(material), len(used)), "mode": 4})
        meshes.append({"name": name, "primitives": primitives})
    materials = []
    for value in used:  # in the order first used
        color = [round(srgb_to_linear(c), 6) for c in material_color(theme, value)]
        materials.append({"name": material_name(value), "pbrMetallicRoughness": {
            "baseColorFactor": color + [1.0], "metallicFactor": 0.0, "roughnessFactor": 1.0}})
    document = {"meshes": meshes, "materials": materials, "accessors": buffer.accessors,
                "bufferViews": buffer.views}
    return Kit(document, b"".join(bytes(b) for b in buffer.blobs),
               {mesh["name"]: i for i, mesh in enumerate(meshes)},
               PIECE_BLOCKS * block_size, LEVEL_BLOCKS * block_size)


def _chunks(data: bytes, path: str) -> tuple[dict, bytes]:
    """The JSON and BIN chunks of a .glb, checked."""
    if len(data) < 20 or data[:4] != b"glTF":
        raise BlockmazeError(f"kit {path}: not a glTF binary file (.glb): it does not start 'glTF'")
    version, total = struct.unpack_from("<II", data, 4)
    if version != 2 or total > len(data):
        raise BlockmazeError(f"kit {path}: a glTF {version} file of {total} bytes in {len(data)}: "
                             "the kit must be a whole glTF 2.0 .glb")
    chunks: dict[bytes, bytes] = {}
    at = 12
    while at + 8 <= total:
        length, kind = struct.unpack_from("<I4s", data, at)
        chunks.setdefault(kind, data[at + 8:at + 8 + length])
        at += 8 + length + (-length % 4)
    try:
        document = json.loads(chunks[b"JSON"])
    except (KeyError, ValueError, RecursionError):
        raise BlockmazeError(f"kit {path}: its JSON chunk is missing or not JSON") from None
    if not isinstance(document, dict):
        raise BlockmazeError(f"kit {path}: its JSON chunk is not a glTF document")
    return document, chunks.get(b"BIN\0", b"")


def _extent(document: dict, mesh: dict) -> np.ndarray:
    """A mesh's (x, y, z) size from its positions' accessor bounds."""
    low, high = np.full(3, np.inf), np.full(3, -np.inf)
    for primitive in mesh.get("primitives", []):
        accessor = document["accessors"][primitive["attributes"]["POSITION"]]
        low = np.minimum(low, accessor["min"][:3])
        high = np.maximum(high, accessor["max"][:3])
    return high - low


def load_kit(path: str) -> Kit:
    """A user's kit: the meshes of a .glb by the names of its nodes (or meshes), in one buffer.

    Only what the pieces draw with is taken: meshes, materials, textures, images (in the buffer),
    samplers, accessors and buffer views. A kit whose buffer lies outside the file, or that
    needs an extension, is refused in one line.
    """
    from ...support.files import read_regular

    document, blob = _chunks(read_regular(path, "kit", KIT_BYTES), path)
    buffers = document.get("buffers", [])
    if len(buffers) > 1 or any("uri" in b for b in buffers):
        raise BlockmazeError(f"kit {path}: its data must be in the .glb itself, one buffer "
                             "(export it as glTF binary, .glb)")
    if document.get("extensionsRequired"):
        raise BlockmazeError(f"kit {path}: it requires {', '.join(document['extensionsRequired'])}; "
                             "export the kit without compression or quantization")
    meshes: dict[str, int] = {}
    for mesh_index, mesh in enumerate(document.get("meshes", [])):
        if isinstance(mesh.get("name"), str):
            meshes.setdefault(mesh["name"], mesh_index)
    for node in document.get("nodes", []):  # a node's name wins over its mesh's
        if isinstance(node.get("name"), str) and isinstance(node.get("mesh"), int):
            meshes[node["name"]] = node["mesh"]
    if not meshes:
        raise BlockmazeError(f"kit {path}: no node or mesh is named; name each piece's node as "
                             "the piece (dead-end, corridor, corner, tee, cross)")
    try:
        sizes = np.array([_extent(document, document["meshes"][i]) for i in meshes.values()])
    except (KeyError, IndexError, TypeError, ValueError):
        raise BlockmazeError(f"kit {path}: a piece's positions have no min and max bounds") from None
    kept = {key: document[key] for key in ("meshes", "materials", "accessors", "bufferViews",
                                           "textures", "images", "samplers") if key in document}
    return Kit(kept, blob, meshes, float(max(sizes[:, 0].max(), sizes[:, 2].max())),
               float(sizes[:, 1].max()))


_COMPONENTS = {5121: np.uint8, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}
_WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}


def _read_accessor(kit: Kit, index: int) -> np.ndarray:
    """An accessor of the kit's buffer as an (n, width) array (plain, not sparse)."""
    accessor = kit.document["accessors"][index]
    if "sparse" in accessor or "bufferView" not in accessor:
        raise BlockmazeError("a kit piece's accessor is sparse or empty; export the kit plainly")
    dtype = np.dtype(_COMPONENTS[accessor["componentType"]])
    width = _WIDTH[accessor["type"]]
    view = kit.document["bufferViews"][accessor["bufferView"]]
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    stride = view.get("byteStride", dtype.itemsize * width)
    count = accessor["count"]
    if start + stride * max(count - 1, 0) + dtype.itemsize * width > len(kit.blob):
        raise BlockmazeError("a kit piece's accessor runs past the end of its buffer")
    rows = np.lib.stride_tricks.as_strided(
        np.frombuffer(kit.blob, np.uint8, offset=start), (count, dtype.itemsize * width),
        (stride, 1))
    return np.ascontiguousarray(rows).view(dtype).reshape(count, width)


def piece_surfaces(kit: Kit, name: str) -> list[tuple[int | None, np.ndarray, np.ndarray, np.ndarray]]:
    """A piece's triangle surfaces: (material index or None, vertices float32 (V, 3), normals
    float32 (V, 3), faces (F, 3)), read from the kit's buffer.

    >>> [(m, v.shape) for m, v, n, f in piece_surfaces(default_kit(["corner"]), "corner")]
    [(0, (55, 3)), (1, (33, 3))]
    """
    surfaces = []
    for primitive in kit.document["meshes"][kit.mesh(name)].get("primitives", []):
        if primitive.get("mode", 4) != 4:
            raise BlockmazeError(f"the kit's {name!r} piece draws other than triangles")
        attributes = primitive["attributes"]
        vertices = _read_accessor(kit, attributes["POSITION"]).astype(np.float32)
        normals = (_read_accessor(kit, attributes["NORMAL"]).astype(np.float32)
                   if "NORMAL" in attributes else np.zeros_like(vertices))
        faces = (_read_accessor(kit, primitive["indices"]).reshape(-1, 3)
                 if "indices" in primitive else np.arange(len(vertices)).reshape(-1, 3))
        surfaces.append((primitive.get("material"), vertices, normals, faces))
    return surfaces
