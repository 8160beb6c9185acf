"""Solids of mazes on surfaces: a cylinder's maze as grooves in a tube (:mod:`.tube`, the height
field mesh; :mod:`.plan`, the wrapped 2n+1 plan), the puzzle box made of them (:mod:`.box`) and
its files (:mod:`.boxfile`).

>>> from blockmaze.export.surfaces.tube import tube_mesh
>>> callable(tube_mesh)
True
"""
