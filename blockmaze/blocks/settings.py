"""How a maze becomes blocks, decided once: one frozen value with every default applied.

:class:`BlockSettings` holds the wall and passage thickness (the 2n+1 converter's), the scale a
rasterized kind is drawn at, how a plan stands up (height, floor, roof, lights, hollow walls),
weave bridges and the solution path. :meth:`BlockSettings.resolve` applies the defaults for a grid kind (a
weave maze's walls 4 thick, a layered maze's passages 2 wide, a rasterized kind's scale 4 or its
least) and refuses what cannot be built; every size check, the choice to stream, the build and
the studio's limits then ask the value, not the options.

Example
-------
>>> settings = BlockSettings.resolve("layered", height=4, roof=True)
>>> settings.passage, settings.volume_height, settings.plan_shape((3, 4))
(2, 6, (10, 13))
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ParameterError
from .convert import Thickness, per_axis, plan_shape
from .volume import volume_height

CONVERTED = frozenset({"square", "layered", "weave"})  # drawn by the 2n+1 converter


@dataclass(frozen=True)
class BlockSettings:
    """How a maze of ``kind`` becomes blocks (see the module docstring); build one with
    :meth:`resolve`, which applies the defaults."""

    kind: str = "square"
    wall: Thickness = 1
    passage: Thickness = 1
    scale: int = 4
    height: int = 3
    floor: bool = True
    roof: bool = False
    lights: bool = False
    bridges: bool = False
    solution: bool = False
    hollow: bool = False

    @classmethod
    def resolve(cls, kind: str = "square", *, wall: Thickness | None = None,
                passage: Thickness | None = None, scale: int | None = None, height: int = 3,
                floor: bool = True, roof: bool = False, lights: bool = False,
                bridges: bool = False, solution: bool = False,
                hollow: bool = False) -> BlockSettings:
        """The settings for a maze of ``kind``, each default applied here once: ``wall`` 1
        block (4 for weave mazes, whose tunnels' or bridges' stairs fit in the walls),
        ``passage`` 1 block (2 for layered mazes, whose cells hold spiral stairs a player or a
        game engine's character walks up), ``scale`` 4 or the kind's least if larger. ``hollow`` takes buried wall blocks out, in pockets no mob spawns in
        (:mod:`blockmaze.blocks.hollow`).

        >>> BlockSettings.resolve("weave").wall, BlockSettings.resolve("hex").scale
        (4, 4)
        >>> BlockSettings.resolve(lights=True, floor=False)
        Traceback (most recent call last):
        ...
        blockmaze.errors.ParameterError: lights go into the floor: drop floor=False
        """
        if lights and not floor:
            raise ParameterError("{lights} go into the floor: drop {floor=False}")
        volume_height(height, floor, roof)  # a bad height, refused here
        if wall is None:
            wall = _weave_wall() if kind == "weave" else 1
        if passage is None:
            passage = 2 if kind == "layered" else 1
        return cls(kind, wall, passage, default_scale(kind) if scale is None else scale, height,
                   floor, roof, lights, bridges, solution, hollow)

    @property
    def converted(self) -> bool:
        """Whether the 2n+1 converter draws this kind (else it is rasterized at ``scale``)."""
        return self.kind in CONVERTED

    @property
    def volume_height(self) -> int:
        """Layers of a plan stood up: the walls, the floor and the roof."""
        return volume_height(self.height, self.floor, self.roof)

    def plan_shape(self, shape: tuple[int, int]) -> tuple[int, int]:
        """The (z, x) blocks of a ROWSxCOLS square maze's plan.

        >>> BlockSettings(wall=2).plan_shape((3, 4))
        (11, 14)
        """
        return plan_shape(*shape, self.wall, self.passage)

    def volume_shape(self, plan: tuple[int, int]) -> tuple[int, int, int]:
        """The (y, z, x) blocks of a (z, x) plan stood up.

        >>> BlockSettings(roof=True).volume_shape((5, 7))
        (5, 5, 7)
        """
        return (self.volume_height, *plan)

    @property
    def groove(self) -> int:
        """How many blocks wide a passage is drawn (a finger labyrinth's groove spans them):
        the passage across x for the converted kinds; a rasterized cell's room, its scale less a
        block of wall on each side.

        >>> BlockSettings(passage=(2, 3)).groove, BlockSettings("polar").groove
        (3, 2)
        """
        if self.converted:
            return per_axis(self.passage, "passage")[1]
        return max(1, self.scale - 2)

    def check_scale(self) -> None:
        """Refuse a scale too small to rasterize this kind walkably (blocks outputs only).

        >>> BlockSettings("hex", scale=2).check_scale()
        Traceback (most recent call last):
        ...
        blockmaze.errors.ParameterError: a hex maze needs scale=3 or more (blocks per cell), got 2
        """
        if self.converted:
            return
        from ..support.wording import article
        from .raster import min_scale

        least = min_scale(self.kind)
        if self.scale < least:
            raise ParameterError(f"{article(self.kind)} maze needs {{scale={least}}} or more "
                                 f"(blocks per cell), got {self.scale}")


def default_scale(kind: str) -> int:
    """The scale a rasterized kind is drawn at by default: 4, or the kind's least if larger.

    >>> default_scale("triangle"), default_scale("square")
    (5, 4)
    """
    if kind in CONVERTED:
        return 4
    from .raster import MIN_SCALE

    return max(4, MIN_SCALE.get(kind, 4))  # (a kind drawn in no blocks: refused where drawn)


def _weave_wall() -> int:
    from .weave import TUNNEL_WALL

    return TUNNEL_WALL
