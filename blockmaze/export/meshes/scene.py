"""The surface as a ``trimesh.Scene`` for Python users: one geometry per material.

trimesh is an optional dependency (``pip install trimesh``, or ``pip install '.[trimesh]'`` in a
checkout), imported only here.
The scene is the glTF's: Y-up, metres (``block_size`` per block), the same triangles as a
``.glb`` written with ``chunk=0``, vertices shared where position and normal agree, each
geometry named after its material and coloured with the theme's colour.

Example
-------
>>> import numpy as np
>>> scene = to_trimesh(np.ones((1, 1, 1), np.uint8))
>>> list(scene.geometry), len(scene.geometry["wall"].faces)
(['wall'], 12)
"""

from __future__ import annotations

import numpy as np

from ...errors import BlockmazeError
from ...materials import Theme, as_theme
from .chunks import chunk_parts
from .common import check_block_size, check_flag, material_alpha, material_name

__all__ = ["to_trimesh"]


def to_trimesh(volume: np.ndarray, theme: Theme | None = None, block_size: float = 1.0,
               watertight: bool = True):
    """A ``trimesh.Scene`` of a (y, z, x) volume's surface, one geometry per material.

    Parameters
    ----------
    volume : numpy.ndarray
        ``uint8`` ``(y, z, x)`` materials.
    theme : Theme, optional
        The colours of the materials (the default theme when None).
    block_size : float
        The side of a block in the mesh's units.
    watertight : bool
        Make every surface closed and 2-manifold, sealing cells that touch only along an edge
        (True), or mesh the solid exactly as it is (False).

    Returns
    -------
    trimesh.Scene
        A geometry named after each material present (trimesh must be installed).

    Examples
    --------
    >>> import numpy as np
    >>> scene = to_trimesh(np.ones((1, 1, 2), np.uint8))
    >>> sorted(scene.geometry)
    ['wall']
    """
    try:
        import trimesh
    except ImportError:
        raise BlockmazeError("to_trimesh needs the trimesh package: pip install trimesh "
                             "(or, in a blockmaze checkout, pip install '.[trimesh]')") from None
    block_size = check_block_size(block_size)
    check_flag("watertight", watertight)
    volume = np.asarray(volume)
    if volume.ndim != 3 or volume.size == 0 or volume.dtype.kind not in "ui":
        raise BlockmazeError(f"to_trimesh takes a (y, z, x) volume of block materials (3-D, not "
                             f"empty, whole numbers), got a {volume.ndim}-D {volume.dtype} array "
                             f"of shape {volume.shape}")
    theme = as_theme(theme)
    scene = trimesh.Scene()
    for part in chunk_parts(np.asarray(volume), chunk=0, watertight=watertight):
        rgba = list(theme.color(part.material)) + [round(255 * material_alpha(theme, part.material))]
        mesh = trimesh.Trimesh(part.points() * block_size, part.faces.astype(np.int64),
                               vertex_normals=part.normals.astype(np.float64), process=False,
                               face_colors=np.tile(rgba, (len(part.faces), 1)).astype(np.uint8))
        name = material_name(part.material)
        scene.add_geometry(mesh, node_name=name, geom_name=name)
    if not scene.geometry:
        raise BlockmazeError("the volume has no solid block: there is no surface to write")
    return scene
