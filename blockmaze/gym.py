"""Environments for agents: a Gymnasium maze (:class:`MazeEnv`, registered as
``blockmaze/Maze-v0``) and a MiniGrid one (:class:`MiniGridMaze`) over the same levels.

A level is a maze as ``blockmaze generate`` makes it, drawn in blocks (the 2n+1 plan of a
square maze, the rasterized plan of a hex, triangle, upsilon or polar one): a wall block or a
floor block each, the agent starting on START and the goal on GOAL. Levels are addressed by
seed as a batch's items are (procgen's ``num_levels`` and ``start_level``): level ``i`` is item
``i`` of ``blockmaze batch generate ... --seed ROOT`` with the same options, so a dataset and
an environment can share their levels. ``reset`` picks one of ``num_levels`` levels from
``start_level`` on with the environment's own random generator (``num_levels=0``: any level),
or the one ``options={"level": i}`` names.

Observation: the whole plan, or the ``view`` x ``view`` blocks round the agent (outside the plan
is wall), as ``uint8`` codes :data:`FLOOR`, :data:`WALL`, :data:`AGENT`, :data:`GOAL`. Actions:
0 north, 1 south, 2 west, 3 east (a move into a wall stays put). Reward 1 on reaching the goal
(the episode ends), else 0; an episode is cut after ``max_steps``.

Gymnasium (``pip install gymnasium``) and MiniGrid (``pip install minigrid``) are imported only
here. ``gymnasium.make("blockmaze.gym:blockmaze/Maze-v0")`` imports this module and makes one.

Example
-------
>>> from blockmaze.gym import MazeEnv
>>> env = MazeEnv(size=(4, 4), num_levels=10, seed=3)
>>> observation, info = env.reset(seed=0)
>>> observation.shape, info["level"] in range(10)
((9, 9), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import BlockmazeError
from .materials import Material

FLOOR, WALL, AGENT, GOAL = 0, 1, 2, 3
MOVES = ((-1, 0), (1, 0), (0, -1), (0, 1))  # north, south, west, east: (dz, dx)
ENV_ID = "blockmaze/Maze-v0"
PLANAR = ("square", "hex", "triangle", "upsilon", "polar")


@dataclass(frozen=True)
class Level:
    """One level: ``walls`` (bool, z by x), the agent's ``start`` and the ``goal`` (z, x), and
    the ``seed`` of the maze it was drawn from."""

    walls: np.ndarray
    start: tuple[int, int]
    goal: tuple[int, int]
    seed: int


def make_level(options: dict, root: int, index: int) -> Level:
    """Level ``index`` for the generate ``options`` (by parameter name) and ``root`` seed: the
    maze of batch item ``index``, in blocks.

    >>> level = make_level({"size": (3, 3)}, 0, 5)
    >>> level.walls.shape, bool(level.walls[level.start]), bool(level.walls[level.goal])
    ((7, 7), False, False)
    """
    from .batches import Description
    from .commands import make_job
    from .jobs import block_settings, carved
    from .pipeline import blocks_of, grid_shape
    from .support.randomness import item_seed

    description = Description("generate", tuple(sorted(options.items())), (), root, index + 1,
                              1, "pack")
    job: Any = make_job("generate", **description.item_options(index), solution=True)
    if job.kind not in PLANAR or job.unicursal:
        raise BlockmazeError(f"an environment's level is a flat plan: -g one of "
                             f"{', '.join(PLANAR)} (not {job.kind}{' unicursal' * job.unicursal})")
    seed = item_seed(root, index)
    document = carved(job, None, job.kind, grid_shape(job.kind, tuple(job.size)), None, seed,
                      ends=True)
    plan = blocks_of(document.maze, document.endpoints, block_settings(job, job.kind))
    start = np.argwhere(plan == Material.START)[0]
    goal = np.argwhere(plan == Material.GOAL)[0]
    return Level(plan == Material.WALL, (int(start[0]), int(start[1])),
                 (int(goal[0]), int(goal[1])), seed)


class _Levels:
    """The levels an environment draws from, made on first use and kept (a few hundred bytes
    each)."""

    def __init__(self, options: dict, root: int, num_levels: int, start_level: int):
        if num_levels < 0 or start_level < 0:
            raise BlockmazeError(f"num_levels and start_level are whole numbers >= 0, got "
                                 f"{num_levels} and {start_level}")
        self.options, self.root = dict(options), root
        self.num_levels, self.start_level = num_levels, start_level
        self.made: dict[int, Level] = {}
        self.shape = self.level(start_level).walls.shape
        if options.get("kind", "square") not in PLANAR:
            raise BlockmazeError(f"an environment's levels are flat plans: kind one of {PLANAR}")

    def pick(self, rng: np.random.Generator, options: dict | None) -> int:
        if options and "level" in options:
            return int(options["level"])
        if self.num_levels == 0:
            return self.start_level + int(rng.integers(2 ** 31))
        return self.start_level + int(rng.integers(self.num_levels))

    def level(self, index: int) -> Level:
        if index not in self.made:
            level = make_level(self.options, self.root, index)
            if self.made and level.walls.shape != self.shape:
                raise BlockmazeError("every level of an environment has one plan shape")
            self.made[index] = level
        return self.made[index]


def _gymnasium():
    try:
        import gymnasium
    except ImportError:
        raise BlockmazeError("the environments need gymnasium: pip install gymnasium") from None
    return gymnasium


def _maze_env_class():
    gymnasium = _gymnasium()
    from gymnasium import spaces

    class MazeEnv(gymnasium.Env):
        """A maze level as a Gymnasium environment (see the module notes).

        ``options``: generate's options by parameter name (``size``, ``kind``, ``algorithm``,
        ``braid``, ``scale`` ...); ``seed``: the levels' root seed; ``view``: the side of the
        local view (odd), or None for the whole plan.
        """

        metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 8}

        def __init__(self, size=(9, 9), *, num_levels: int = 0, start_level: int = 0,
                     seed: int = 0, view: int | None = None, max_steps: int | None = None,
                     render_mode: str | None = None, **options: Any):
            self.levels = _Levels({"size": size, **options}, seed, num_levels, start_level)
            rows, cols = self.levels.shape
            if view is not None and (view < 1 or view % 2 == 0):
                raise BlockmazeError(f"view is an odd number of blocks >= 1, got {view}")
            self.view = view
            shape = (view, view) if view else (rows, cols)
            self.observation_space = spaces.Box(0, GOAL, shape, dtype=np.uint8)
            self.action_space = spaces.Discrete(4)
            self.max_steps = max_steps or 4 * rows * cols
            self.render_mode = render_mode
            self.current: Level | None = None
            self.agent = (0, 0)
            self.steps = 0
            self.index = start_level

        def reset(self, *, seed: int | None = None, options: dict | None = None):
            super().reset(seed=seed)
            self.index = self.levels.pick(self.np_random, options)
            self.current = self.levels.level(self.index)
            self.agent, self.steps = self.current.start, 0
            return self._observe(), self._info()

        def step(self, action):
            assert self.current is not None, "call reset() first"
            dz, dx = MOVES[int(action)]
            z, x = self.agent[0] + dz, self.agent[1] + dx
            walls = self.current.walls
            if 0 <= z < walls.shape[0] and 0 <= x < walls.shape[1] and not walls[z, x]:
                self.agent = (z, x)
            self.steps += 1
            reached = self.agent == self.current.goal
            truncated = not reached and self.steps >= self.max_steps
            return (self._observe(), 1.0 if reached else 0.0, reached, truncated,
                    self._info())

        def _observe(self) -> np.ndarray:
            level = self.current
            assert level is not None
            whole = level.walls.astype(np.uint8)
            whole[level.goal] = GOAL
            whole[self.agent] = AGENT
            if self.view is None:
                return whole
            half = self.view // 2
            padded = np.pad(whole, half, constant_values=WALL)
            z, x = self.agent
            return np.ascontiguousarray(padded[z:z + self.view, x:x + self.view])

        def _info(self) -> dict:
            assert self.current is not None
            return {"level": self.index, "seed": self.current.seed, "agent": self.agent,
                    "goal": self.current.goal, "steps": self.steps}

        def render(self):
            if self.current is None:
                return None
            whole = self.current.walls.astype(np.uint8)
            whole[self.current.goal] = GOAL
            whole[self.agent] = AGENT
            if self.render_mode == "rgb_array":
                colours = np.array([[255, 255, 255], [40, 40, 40], [220, 40, 40], [40, 180, 60]],
                                   np.uint8)
                return np.repeat(np.repeat(colours[whole], 8, axis=0), 8, axis=1)
            return "\n".join("".join(" #@G"[v] for v in row) for row in whole)

    return MazeEnv


def _minigrid_class():
    from minigrid.core.grid import Grid
    from minigrid.core.mission import MissionSpace
    from minigrid.core.world_object import Goal, Wall
    from minigrid.minigrid_env import MiniGridEnv

    class MiniGridMaze(MiniGridEnv):
        """The same levels as MiniGrid's world: a Wall per wall block, the Goal on the goal,
        the agent on the start facing east; MiniGrid's own actions, view and reward."""

        def __init__(self, size=(9, 9), *, num_levels: int = 0, start_level: int = 0,
                     seed: int = 0, max_steps: int | None = None, **options: Any):
            kwargs = {k: options.pop(k) for k in ("render_mode", "agent_view_size",
                                                    "see_through_walls", "highlight",
                                                    "tile_size", "agent_pov", "screen_size")
                      if k in options}
            self.levels = _Levels({"size": size, **options}, seed, num_levels, start_level)
            rows, cols = self.levels.shape
            self.index = start_level
            self._next: dict | None = None
            super().__init__(mission_space=MissionSpace(mission_func=self._mission),
                             width=cols, height=rows, max_steps=max_steps or 4 * rows * cols,
                             **kwargs)

        @staticmethod
        def _mission() -> str:
            return "get to the green goal square"

        def reset(self, *, seed: int | None = None, options: dict | None = None):
            self._next = options
            return super().reset(seed=seed, options=options)

        def _gen_grid(self, width: int, height: int) -> None:
            self.index = self.levels.pick(self.np_random, self._next)
            level = self.levels.level(self.index)
            self.grid = Grid(width, height)
            for z, x in np.argwhere(level.walls).tolist():
                self.grid.set(x, z, Wall())
            self.put_obj(Goal(), level.goal[1], level.goal[0])
            self.agent_pos = (level.start[1], level.start[0])
            self.agent_dir = 0
            self.mission = self._mission()

    return MiniGridMaze


def __getattr__(name: str):
    """``MazeEnv`` and ``MiniGridMaze``, their libraries imported on first use."""
    if name == "MazeEnv":
        value = _maze_env_class()
    elif name == "MiniGridMaze":
        value = _minigrid_class()
    else:
        raise AttributeError(name)
    globals()[name] = value
    return value


def register() -> None:
    """Register :class:`MazeEnv` with Gymnasium as ``blockmaze/Maze-v0`` (done on import)."""
    gymnasium = _gymnasium()
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point="blockmaze.gym:MazeEnv")


try:  # (registered when gymnasium is there; the module itself imports without it)
    import gymnasium as _registry  # noqa: F401

    register()
except ImportError:
    pass
