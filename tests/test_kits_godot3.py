"""Godot 3 opens our kit scenes and walks them: one editor import and one probe run
(tests/external/godot3_kits.gd) for every case. For each .tscn and .kit.glb (--navmesh) it counts
the instances under "pieces" (one a cell) and asks Godot's Navigation for the way from the start
cell's middle to the goal's: the way reaches the goal and every point of it is on the floor
(checked from the maze's passages alone, tests/kitwalk.py; a weave maze's way goes over and under
its bridges); where the goal is walled off, Godot
finds no way to it (3.2.3 returns an empty path for a goal on a floor of its own). The voxel
.glb's floor-navmesh (--navmesh on a plain .glb) is walked the same way, on its floor blocks."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from kitwalk import on_blocks, path_on_floor, path_through_open_sides
from test_mesh_godot3 import godot3_import

import blockmaze as bm
from blockmaze.maze import Maze
from blockmaze.mazes.documents import MazeDocument
from blockmaze.mazes.pieces import maze_pieces
from blockmaze.pipeline import make_maze

pytestmark = [pytest.mark.reader, pytest.mark.slow]

PROBE = Path(__file__).with_name("external") / "godot3_kits.gd"


def walled_off(document: MazeDocument) -> MazeDocument:
    """The maze with every passage into its goal closed."""
    links = document.maze.links.copy()
    grid = document.maze.grid
    goal = document.endpoints.goal
    for d, other in enumerate(grid.neighbors[goal].tolist()):
        if other >= 0:
            links[goal, d] = links[other, grid.opposite[d]] = False
    return MazeDocument(Maze(grid, links), document.endpoints)


def test_godot3_counts_the_pieces_and_walks_start_to_goal(tmp_path):
    cases = {
        "square": make_maze((6, 7), "square", "backtracker", seed=1),
        "braided": make_maze((5, 5), "square", "backtracker", seed=2, braid=0.5),
        "layered": make_maze((3, 4, 4), "layered", "backtracker", seed=3),
        "walled": walled_off(make_maze((5, 5), "square", "backtracker", seed=4)),
        "walled-layered": walled_off(make_maze((2, 3, 3), "layered", "backtracker", seed=5)),
        "hex": make_maze((5, 6), "hex", "backtracker", seed=6),
        "triangle": make_maze((4, 7), "triangle", "backtracker", seed=7),
        "upsilon": make_maze((4, 5), "upsilon", "backtracker", seed=8),
        "polar": make_maze((4,), "polar", "backtracker", seed=9),
        "walled-hex": walled_off(make_maze((4, 4), "hex", "backtracker", seed=10)),
        "weave": make_maze((7, 7), "weave", "backtracker", seed=11, weave=1.0),
    }
    ends, expected = {}, {}
    for name, document in cases.items():
        pieces = maze_pieces(document.maze, document.endpoints)
        index = {cell: i for i, cell in enumerate(pieces.cells.tolist())}
        start = pieces.position[index[document.endpoints.start]].tolist()
        goal = pieces.position[index[document.endpoints.goal]].tolist()
        for suffix in (".tscn", ".kit.glb"):
            bm.save(document, tmp_path / f"{name}{suffix}", navmesh=True) if suffix != ".tscn" \
                else bm.save(document, tmp_path / f"{name}{suffix}")
            ends[f"{name}{suffix}"] = [start, goal]
            expected[f"{name}{suffix}"] = (document, pieces, goal)
    voxels = {"voxel": make_maze((6, 7), "square", "backtracker", seed=12, braid=0.3),
              "walled-voxel": walled_off(make_maze((5, 5), "square", "backtracker", seed=13))}
    block = 0.5  # the voxel .glb: a block a passage, the floor a block up, the root scaled
    for name, document in voxels.items():
        bm.save(document, tmp_path / f"{name}.glb", navmesh=True, block_size=block)
        cols = document.maze.grid.shape[1]
        start, goal = ([(2 * (cell % cols) + 1.5) * block, block, (2 * (cell // cols) + 1.5) * block]
                       for cell in (document.endpoints.start, document.endpoints.goal))
        ends[f"{name}.glb"] = [start, goal]
    (tmp_path / "cases.json").write_text(json.dumps(ends))
    report = godot3_import(tmp_path, PROBE)
    for name, document in voxels.items():
        found = report[f"{name}.glb"]
        assert found["loaded"] and found["navmesh"], name
        path, goal = np.array(found["path"]), np.array(ends[f"{name}.glb"][1])
        if name.startswith("walled"):
            assert len(path) == 0 or np.linalg.norm(path[-1] - goal) > 2 * block, name
            continue
        assert len(path) >= 2 and np.linalg.norm(path[-1] - goal) < 0.05, name
        assert on_blocks(document.maze, path / block), name
    for file, (document, pieces, goal) in expected.items():
        found = report[file]
        assert found["loaded"] and found["navmesh"], file
        assert found["pieces"] == document.maze.grid.enabled_count, file
        path = np.array(found["path"])
        if file.startswith("walled"):
            # Godot 3.2.3 answers a goal on a floor of its own with no way at all (an empty
            # path); a way it returns must end short of the goal
            assert len(path) == 0 or np.linalg.norm(path[-1] - goal) > pieces.cell_size / 2, file
            continue
        assert len(path) >= 2, file
        if document.maze.grid.kind in ("square", "layered", "weave"):
            assert path_on_floor(document.maze, pieces.cell_size, pieces.level_height, path), file
        else:
            assert path_through_open_sides(document.maze, pieces.cell_size, path), file
        assert np.linalg.norm(path[-1] - np.array(goal)) < 0.05, file
        if document.maze.grid.kind == "weave":  # the way crosses a bridge and goes under one
            over, under = crossings_passed(document.maze, pieces.cell_size, pieces.level_height,
                                           path)
            assert over and under, (file, over, under)


def crossings_passed(maze, cell_size: float, level_height: float, path) -> tuple[set, set]:
    """The used crossings whose middle ``path`` passes on their deck, and under it."""
    used = set(maze.grid.used_crossings(maze.links)[:, 0].tolist())
    cols = maze.grid.shape[1]
    over, under = set(), set()
    for a, b in zip(path[:-1], path[1:], strict=True):
        for t in np.linspace(0, 1, 21):
            x, y, z = a + t * (b - a)
            col, row = int(x // cell_size), int(z // cell_size)
            middle = max(abs(x - (col + 0.5) * cell_size),  # in its middle 3 x 3 units
                         abs(z - (row + 0.5) * cell_size)) <= 0.3 * cell_size + 1e-3
            cell = row * cols + col
            if middle and cell in used:
                (over if y > 0.5 * level_height else under).add(cell)
    return over, under
