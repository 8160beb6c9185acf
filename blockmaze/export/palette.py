"""From materials to a Minecraft block palette, through a theme."""

from __future__ import annotations

import numpy as np

from ..errors import BlockmazeError
from ..materials import Material, Theme


def minecraft_palette(blocks: np.ndarray, theme: Theme) -> tuple[np.ndarray, list[str]]:
    """Palette indices (same shape as ``blocks``) and the block-state strings they index.

    The palette lists the materials present in material order (so AIR, if present, is index 0);
    materials the theme draws with the same block state share one entry.

    Example
    -------
    >>> from blockmaze.materials import load_theme
    >>> indices, palette = minecraft_palette(np.array([[1, 0, 1]], np.uint8), load_theme())
    >>> indices.tolist(), palette
    ([[1, 0, 1]], ['minecraft:air', 'minecraft:stone_bricks'])
    """
    present = np.flatnonzero(np.bincount(blocks.ravel(), minlength=256))
    palette: list[str] = []
    lookup = np.zeros(256, dtype=np.uint8)
    for value in present:
        state = theme.minecraft.get(value)
        if state is None:
            name = Material(value).name.lower() if value in Material._value2member_map_ else str(value)
            raise BlockmazeError(f"theme {theme.name!r} has no Minecraft block for material {name}")
        if state not in palette:
            palette.append(state)
        lookup[value] = palette.index(state)
    return lookup[blocks], palette
