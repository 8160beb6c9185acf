"""Game-engine kits: a maze as pieces placed one a cell (see :mod:`blockmaze.mazes.pieces`).

Modules: :mod:`.piecelist` (the piece list, .pieces.json and .pieces.csv), :mod:`.kit` (a kit's
meshes by piece name: the user's .glb or the default one built from blockmaze's own voxel
pieces; :mod:`.shapes` those of other cells than squares), :mod:`.navmesh` (the walkable floor
as navigation polygons), :mod:`.scene` (the kit placed as a glTF scene, .kit.glb) and
:mod:`.tscn` (a Godot 3 scene, .tscn).
"""
