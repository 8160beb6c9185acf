"""The Godot 3 scene (.tscn): the kit's pieces a cell, their collision and the navigation mesh.

One text file a Godot 3 user drags into a project (Godot's text scene format, version 2): each
piece of the kit an ``ArrayMesh`` and a ``ConcavePolygonShape`` written in the file, each cell a
``MeshInstance`` of its piece (``pieces/PIECE_CELL``) with a ``StaticBody`` and its
``CollisionShape``, and ``navigation`` (a ``Navigation`` node) holding ``floor``, a
``NavigationMeshInstance`` of the walkable floor (:mod:`.navmesh`), so
``$navigation.get_simple_path(from, to)`` finds a way. Y up, north -Z, metres.

Example
-------
>>> import io
>>> from blockmaze import MazeDocument, generate
>>> out = io.BytesIO(); write_tscn(MazeDocument(generate((2, 3), rng=1)), out, None)
>>> text = out.getvalue().decode()
>>> text.splitlines()[0], text.count('type="MeshInstance"')
('[gd_scene load_steps=10 format=2]', 6)
"""

from __future__ import annotations

from typing import BinaryIO

import numpy as np

from ...materials import Theme
from ...mazes.documents import MazeDocument
from .. import register_writer
from ..target import write_all
from .kit import piece_surfaces
from .navmesh import navigation_floor
from .scene import scene_kit


def _numbers(values) -> str:
    return ", ".join(f"{v:.6g}" for v in np.asarray(values).ravel().tolist())


def _srgb(linear: float) -> float:
    return 12.92 * linear if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055


def basis(rotation: float, mirror: bool) -> list[float]:
    """Godot's basis rows for a turn ``rotation`` degrees clockwise seen from above (about -Y),
    after a mirror x -> -x.

    >>> [round(v) for v in basis(90, False)]
    [0, 0, -1, 0, 1, 0, 1, 0, 0]
    """
    turn = -np.radians(rotation)
    c, s = float(np.cos(turn)), float(np.sin(turn))
    rows = [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]
    if mirror:
        rows = [[-row[0], row[1], row[2]] for row in rows]
    return [round(v, 9) + 0.0 for row in rows for v in row]


def tscn_text(document: MazeDocument, theme: Theme | None = None, kit: str | None = None,
              block_size: float | None = None, solution: bool = False) -> str:
    """The scene's text (see the module docstring)."""
    pieces, used = scene_kit(document, theme, kit, block_size)
    resources: list[str] = []

    def resource(kind: str, body: str) -> int:
        resources.append(f'[sub_resource type="{kind}" id={len(resources) + 1}]\n{body}\n')
        return len(resources)

    materials = {}
    for index, material in enumerate(used.document.get("materials", [])):
        factor = material.get("pbrMetallicRoughness", {}).get("baseColorFactor", [1, 1, 1, 1])
        colour = [_srgb(c) for c in factor[:3]] + [factor[3]]
        materials[index] = resource("SpatialMaterial", f'resource_name = "{material.get("name", "")}"\n'
                                    f"albedo_color = Color( {_numbers(colour)} )\n"
                                    "roughness = 1.0\n")
    meshes, shapes = {}, {}
    for name in pieces.kinds:
        surfaces, faces_all = [], []
        for s, (material, vertices, normals, faces) in enumerate(piece_surfaces(used, name)):
            # Godot draws clockwise faces as the front: the glTF's triangles turned round
            indices = faces[:, ::-1]
            line = (f'surfaces/{s} = {{\n"primitive": 4,\n"arrays": [ PoolVector3Array( '
                    f"{_numbers(vertices)} ), PoolVector3Array( {_numbers(normals)} ), null, null, "
                    f"null, null, null, null, PoolIntArray( {_numbers(indices)} ) ],\n"
                    f'"morph_arrays": [  ]')
            if material is not None and material in materials:
                line += f',\n"material": SubResource( {materials[material]} )'
            surfaces.append(line + "\n}")
            faces_all.append(vertices[indices])
        meshes[name] = resource("ArrayMesh", f'resource_name = "{name}"\n' + "\n".join(surfaces))
        shapes[name] = resource("ConcavePolygonShape",
                                f"data = PoolVector3Array( {_numbers(np.concatenate(faces_all))} )")
    floor = navigation_floor(pieces, used.cell_size, used.level_height)
    polygons = ", ".join(f"PoolIntArray( {_numbers(q[::-1])} )" for q in floor.polygons())
    # (Godot's polygons the other way round, as its triangles)
    navmesh = resource("NavigationMesh", f"vertices = PoolVector3Array( {_numbers(floor.vertices)} )\n"
                                         f"polygons = [ {polygons} ]")
    scale = used.level_height / pieces.level_height
    nodes = ['[node name="maze" type="Spatial"]\n', '[node name="pieces" type="Spatial" parent="."]\n']
    for i, (cell, name) in enumerate(zip(pieces.cells.tolist(), pieces.names, strict=True)):
        x, y, z = pieces.position[i].tolist()
        transform = _numbers(basis(pieces.rotation[i], bool(pieces.mirror[i])) + [x, y * scale, z])
        node = f"{name}_{cell}"
        groups = [group for group, flag in (("start", pieces.start[i]), ("goal", pieces.goal[i]),
                                            ("solution", solution and pieces.solution[i])) if flag]
        listed = ", ".join(f'"{group}"' for group in groups)
        grouped = f" groups=[ {listed} ]" if groups else ""
        nodes.append(f'[node name="{node}" type="MeshInstance" parent="pieces"{grouped}]\n'
                     f"transform = Transform( {transform} )\nmesh = SubResource( {meshes[name]} )\n")
        nodes.append(f'[node name="body" type="StaticBody" parent="pieces/{node}"]\n')
        nodes.append(f'[node name="shape" type="CollisionShape" parent="pieces/{node}/body"]\n'
                     f"shape = SubResource( {shapes[name]} )\n")
    nodes.append('[node name="navigation" type="Navigation" parent="."]\n')
    nodes.append('[node name="floor" type="NavigationMeshInstance" parent="navigation"]\n'
                 f"navmesh = SubResource( {navmesh} )\n")
    head = f"[gd_scene load_steps={len(resources) + 1} format=2]\n"
    return "\n".join([head, *resources, *nodes])


def write_tscn(document: MazeDocument, file: BinaryIO, theme: Theme | None, kit: str | None = None,
               block_size: float | None = None, solution: bool = False) -> None:
    """Write the Godot 3 scene (see the module docstring): ``kit`` a .glb of your pieces
    (default: blockmaze's voxel pieces, ``block_size`` metres a block); the start and goal
    cells' nodes are in the groups ``start`` and ``goal``, and with ``solution`` the way's in
    ``solution``."""
    write_all(file.write, tscn_text(document, theme, kit, block_size, solution).encode("utf-8"))


register_writer("tscn", write_tscn)
