"""Things on a plan that its blocks cannot say: stairs with where they lead, a locked door and its
key, spawn points. A dungeon level carries them; a layered maze's levels drawn as tile maps
carry their stairs; tile maps write them.

Example
-------
>>> Entity("stairs", 3, 5, {"direction": "down", "level": 2}).kind
'stairs'
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entity:
    """A thing on a level's plan: ``kind`` at block ``(z, x)`` with ``properties``.

    Kinds: ``start``, ``goal``, ``stairs`` (properties ``direction`` ``up``/``down`` and
    ``level``, the 1-based level it leads to), ``door`` (a locked one has ``locked`` True and
    ``key``, the key's id), ``key`` (``key``: its id), ``monster``, ``item``, ``treasure`` (``rule``: why it
    stands there, and ``distance``: walking distance in blocks from the start), ``checkpoint``
    (``order``: 1 for the first the way passes), ``exit``.
    """

    kind: str
    z: int
    x: int
    properties: dict = field(default_factory=dict, compare=False)
