"""Small helpers every part of the package uses, none of them about mazes:

- ``files``: bounded reads of a regular input file (themes, masks, maze documents, worlds);
- ``kernels``: ``@kernel``, numba for big jobs and the same source as plain Python for small ones;
- ``lazy``: registries and exports that import a module on first use;
- ``memory``: refusing work that cannot fit in memory, before it starts;
- ``progress``: the phase line on stderr for long runs;
- ``randomness``: seeds and Generators (``as_generator``);
- ``wording``: small helpers for messages.

>>> from blockmaze.support.randomness import as_generator
>>> int(as_generator(1).integers(10)) == int(as_generator(1).integers(10))
True
"""
