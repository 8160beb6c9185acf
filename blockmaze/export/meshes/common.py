"""Helpers shared by the mesh writers: names, colours, units, axes, argument checks.

Example
-------
>>> material_name(1), check_block_size(2)
('wall', 2.0)
"""

from __future__ import annotations

import numpy as np

from ...errors import BlockmazeError
from ...materials import Material, Theme
from .. import MAX_BLOCK_SIZE, MIN_BLOCK_SIZE, size_limits

# float32 holds every integer up to 2**24 exactly: block coordinates stay exact.
MAX_SIDE = 2**24
check_size = size_limits("a mesh (float32 block coordinates)", max_side=MAX_SIDE)

# Opacity of see-through blocks (their Minecraft block names), for render formats' alpha.
_TRANSLUCENT = (("glass", 0.35), ("ice", 0.7), ("slime", 0.7), ("honey", 0.7))


def material_name(material: int) -> str:
    """The node/mesh/material name of a material value.

    >>> material_name(1), material_name(42)
    ('wall', 'material42')
    """
    try:
        return Material(material).name.lower()
    except ValueError:
        return f"material{int(material)}"


def material_color(theme: Theme, material: int) -> tuple[float, float, float]:
    """A material's sRGB colour as floats in 0..1 (see ``Theme.color``).

    >>> from blockmaze.materials import load_theme
    >>> len(material_color(load_theme(), Material.START))
    3
    """
    red, green, blue = theme.color(int(material))
    return red / 255, green / 255, blue / 255


def material_alpha(theme: Theme, material: int) -> float:
    """Opacity 0..1 of a material: below 1 for see-through blocks (glass, ice) of the theme.

    >>> from blockmaze.materials import load_theme
    >>> material_alpha(load_theme("glass"), Material.WALL) < 1, material_alpha(load_theme(), Material.WALL)
    (True, 1.0)
    """
    block = theme.minecraft.get(Material(material), "") if material in Material._value2member_map_ else ""
    block = block.split("[")[0].split(":")[-1]
    for word, alpha in _TRANSLUCENT:
        if word in block.split("_"):
            return alpha
    return 1.0


def srgb_to_linear(c: float) -> float:
    """An sRGB component (0..1) as linear light: glTF colour factors are linear.

    >>> round(srgb_to_linear(0.5), 4)
    0.214
    """
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def check_block_size(block_size: float) -> float:
    """A block size as a float from :data:`MIN_BLOCK_SIZE` to :data:`MAX_BLOCK_SIZE`, else a
    BlockmazeError (a smaller one would round to nothing in the file's 32-bit floats).

    >>> check_block_size(1e-320)
    Traceback (most recent call last):
    ...
    blockmaze.errors.BlockmazeError: block size must be a number from 1e-06 to 1e+06, got 1e-320
    """
    if isinstance(block_size, bool) or not isinstance(block_size, (int, float, np.number)):
        raise BlockmazeError(f"block size must be a number > 0, got {block_size!r}")
    if not (np.isfinite(block_size) and MIN_BLOCK_SIZE <= block_size <= MAX_BLOCK_SIZE):
        raise BlockmazeError(f"block size must be a number from {MIN_BLOCK_SIZE:g} to "
                             f"{MAX_BLOCK_SIZE:g}, got {block_size!r}")
    return float(block_size)


def check_flag(name: str, value) -> bool:
    """A true/false option, else a BlockmazeError naming it."""
    if not isinstance(value, (bool, np.bool_)):
        raise BlockmazeError(f"{name} must be true or false, got {value!r}")
    return bool(value)


def z_up(vertices: np.ndarray, depth: float) -> np.ndarray:
    """Block coordinates (x, y, z), Y-up, to Z-up ``(x, depth - z, y)``: a rotation, not a mirror.

    >>> z_up(np.array([[1.0, 2.0, 3.0]], np.float32), depth=10).tolist()
    [[1.0, 7.0, 2.0]]
    """
    out = np.empty_like(vertices)
    out[:, 0] = vertices[:, 0]
    out[:, 1] = depth - vertices[:, 2]
    out[:, 2] = vertices[:, 1]
    return out
