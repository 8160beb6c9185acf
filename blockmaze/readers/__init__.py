"""Readers behind ``blockmaze info``: one module per family of formats blockmaze writes
(:mod:`.minecraft`, :mod:`.meshes`, :mod:`.tilemaps`, :mod:`.pictures`, :mod:`.documents`,
:mod:`.voxels`), each reading an open binary file in bounded memory and time and returning a
:class:`.base.FileInfo`. The streaming NBT reader (:mod:`.nbtread`, its kernels in :mod:`.nbtscan`)
and the saved-world summary (:mod:`.worldinfo`) sit here too.
"""
