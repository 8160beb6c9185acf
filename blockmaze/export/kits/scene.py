"""The kit scene (.kit.glb): a glTF 2.0 scene placing a kit's pieces, one instance a cell.

Nodes: ``maze`` (the root) holds ``pieces``, whose children are the cells, each named
``PIECE_CELL`` (``corner_12``), using the piece's mesh, moved to the cell's middle and turned
about +Y (a mirrored piece scaled -1 in x first); with ``instancing`` a node per piece instead,
its cells as ``EXT_mesh_gpu_instancing`` TRANSLATION, ROTATION (and SCALE) attributes (a file
that then requires the extension). ``navmesh`` adds ``floor-navmesh``, the walkable floor
(:mod:`.navmesh`), named with the suffix Godot's importer turns into a navigation mesh. Y up,
north -Z, metres, as blockmaze's other glTF files.

Example
-------
>>> import io, json
>>> from blockmaze import MazeDocument, generate
>>> out = io.BytesIO()
>>> write_kit_scene(MazeDocument(generate((2, 3), rng=1)), out, None, navmesh=True)
>>> document = json.loads(out.getvalue()[20:20 + int.from_bytes(out.getvalue()[12:16], "little")])
>>> [node["name"] for node in document["nodes"][:2]], len(document["nodes"][1]["children"])
(['maze', 'pieces'], 6)
"""

from __future__ import annotations

from typing import BinaryIO

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme
from ...mazes.documents import MazeDocument
from ...mazes.pieces import PIECE_BLOCKS, Pieces, maze_pieces
from .. import register_writer
from ..meshes.gltf import _Buffer, _index_array, pack_glb
from .kit import Kit, default_kit, load_kit
from .navmesh import NAVMESH_NODE, check_kind, navigation_floor

INSTANCING = "EXT_mesh_gpu_instancing"


def quaternion(rotation: np.ndarray) -> np.ndarray:
    """(n, 4) x, y, z, w quaternions turning ``rotation`` degrees clockwise seen from above
    (about -Y, since +Y is up).

    >>> quaternion(np.array([90.0])).round(4).tolist()
    [[0.0, -0.7071, 0.0, 0.7071]]
    """
    half = np.radians(rotation) / 2
    out = np.zeros((len(rotation), 4))
    out[:, 1] = -np.sin(half)
    out[:, 3] = np.cos(half)
    return out


def scene_kit(document: MazeDocument, theme: Theme | None, kit: str | None,
              block_size: float | None) -> tuple[Pieces, Kit]:
    """The maze's pieces and the kit they are drawn with (the user's, or the default one),
    the pieces placed in the kit's units."""
    grid = document.maze.grid
    check_kind(grid.kind, "a kit scene")
    pieces = maze_pieces(document.maze, document.endpoints, 1.0 if block_size is None else block_size)
    if kit is None:
        built = default_kit(pieces.kinds, theme, 1.0 if block_size is None else block_size,
                            pieces)
    else:
        if block_size is not None:
            raise BlockmazeError("--block-size sizes the default kit; a kit of your own (--kit) "
                                 "is placed at its own size")
        built = load_kit(kit)
        for name in pieces.kinds:
            built.mesh(name)  # every piece the maze needs, before any work
        pieces = maze_pieces(document.maze, document.endpoints, built.cell_size / PIECE_BLOCKS)
    return pieces, built


def kit_scene_document(document: MazeDocument, theme: Theme | None = None, kit: str | None = None,
                       instancing: bool = False, navmesh: bool = False,
                       block_size: float | None = None, solution: bool = False) -> tuple[dict, list]:
    """The kit scene's glTF document and its binary buffer (the kit's, then the scene's)."""
    pieces, used = scene_kit(document, theme, kit, block_size)
    scale = np.array([1.0, used.level_height / pieces.level_height, 1.0])
    position = pieces.position * scale
    turn = quaternion(pieces.rotation)
    base = len(used.blob) + (-len(used.blob) % 4)
    buffer = _Buffer(None)
    gltf = {key: [dict(item) for item in value] for key, value in used.document.items()}
    nodes: list[dict] = [{"name": "maze", "children": [1]}, {"name": "pieces", "children": []}]
    first = len(gltf.get("accessors", []))  # the scene's accessors follow the kit's

    def accessor(array: np.ndarray, kind: str, **details) -> int:
        return first + buffer.accessor(array, kind, **details)

    used_extensions: list[str] = []
    if instancing:
        used_extensions.append(INSTANCING)
        for name in pieces.kinds:
            chosen = np.flatnonzero(np.asarray(pieces.names) == name)
            attributes = {
                "TRANSLATION": accessor(position[chosen].astype(np.float32), "VEC3"),
                "ROTATION": accessor(turn[chosen].astype(np.float32), "VEC4")}
            if pieces.mirror[chosen].any():
                mirrored = np.ones((len(chosen), 3), np.float32)
                mirrored[pieces.mirror[chosen], 0] = -1
                attributes["SCALE"] = accessor(mirrored, "VEC3")
            nodes[1]["children"].append(len(nodes))
            nodes.append({"name": name, "mesh": used.mesh(name),
                          "extensions": {INSTANCING: {"attributes": attributes}}})
    else:
        mesh_of = {name: used.mesh(name) for name in pieces.kinds}
        places = (np.round(position, 6) + 0.0).tolist()
        turns = (np.round(turn, 9) + 0.0).tolist()
        for cell, name, place, rotation, turned, mirrored in zip(
                pieces.cells.tolist(), pieces.names, places, turns, pieces.rotation.tolist(),
                pieces.mirror.tolist(), strict=True):
            node = {"name": f"{name}_{cell}", "mesh": mesh_of[name], "translation": place}
            if turned:
                node["rotation"] = rotation
            if mirrored:
                node["scale"] = [-1.0, 1.0, 1.0]
            nodes.append(node)
        nodes[1]["children"] = list(range(2, len(nodes)))
    if navmesh:
        floor = navigation_floor(pieces, used.cell_size, used.level_height)
        gltf.setdefault("meshes", []).append({"name": NAVMESH_NODE, "primitives": [{
            "attributes": {"POSITION": accessor(floor.vertices, "VEC3", with_bounds=True)},
            "indices": accessor(_index_array(floor.triangles(), len(floor.vertices)),
                                       "SCALAR", indices=True), "mode": 4}]})
        nodes[0]["children"].append(len(nodes))
        nodes.append({"name": NAVMESH_NODE, "mesh": len(gltf["meshes"]) - 1})
    for view in buffer.views:
        view["byteOffset"] += base
    accessors = gltf.get("accessors", [])
    views = gltf.get("bufferViews", [])
    for entry in buffer.accessors:
        entry["bufferView"] = int(entry["bufferView"]) + len(views)
    gltf["accessors"] = accessors + buffer.accessors
    gltf["bufferViews"] = views + buffer.views
    blobs = [used.blob, b"\0" * (base - len(used.blob)), *buffer.blobs]
    out: dict = {"asset": {"version": "2.0", "generator": "blockmaze"}}
    if used_extensions:
        out["extensionsUsed"] = used_extensions
        out["extensionsRequired"] = used_extensions
    grid = document.maze.grid
    out.update({"scene": 0, "scenes": [{"name": "maze", "nodes": [0], "extras": {
        "up": "+Y", "north": "-Z", "cell_size_m": used.cell_size,
        "level_height_m": used.level_height, "grid": f"{grid.kind} {'x'.join(map(str, grid.shape))}",
        "start": None if pieces.endpoints is None else pieces.endpoints.start,
        "goal": None if pieces.endpoints is None else pieces.endpoints.goal,
        **({"solution": pieces.cells[pieces.solution].tolist()} if solution else {})}}],
        "nodes": nodes, **gltf, "buffers": [{"byteLength": base + buffer.blob_length}]})
    return out, blobs


def write_kit_scene(document: MazeDocument, file: BinaryIO, theme: Theme | None,
                    kit: str | None = None, instancing: bool = False, navmesh: bool = False,
                    block_size: float | None = None, solution: bool = False) -> None:
    """Write the kit scene as .glb (see the module docstring): ``kit`` a .glb of your pieces
    (default: blockmaze's voxel pieces, ``block_size`` metres a block); ``solution`` lists the
    cells of the way from start to goal in the scene's extras."""
    gltf, blobs = kit_scene_document(document, theme, kit, instancing, navmesh, block_size,
                                     solution)
    pack_glb(gltf, blobs, file)


register_writer("kit", write_kit_scene)
