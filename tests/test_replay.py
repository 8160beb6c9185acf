"""``blockmaze generate --animate``: the carve replayed in the terminal, the same maze after."""

from __future__ import annotations

import re

import numpy as np
import pytest

from blockmaze import cli
from blockmaze.cli import main
from blockmaze.replay import carve_frames, recorded_maze


def printed(capsys, args) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_not_a_terminal_prints_the_plain_maze(capsys):
    plain = printed(capsys, ["generate", "6x9", "--seed", "4"])
    assert printed(capsys, ["generate", "6x9", "--seed", "4", "--animate"]) == plain


@pytest.mark.slow
@pytest.mark.parametrize("args", [["6x9", "--seed", "4"],
                                  ["5", "-g", "hex", "--seed", "2", "-a", "wilson"],
                                  ["6x6", "--seed", "1", "--braid", "0.5", "--solution"]])
def test_a_terminal_sees_the_carve_then_the_same_maze(capsys, monkeypatch, args):
    plain = printed(capsys, ["generate", *args])
    monkeypatch.setattr(cli, "_is_terminal", lambda stream: True)
    shown = printed(capsys, ["generate", *args, "--animate", "--fps", "240"])
    frames = re.split(r"\x1b\[\d+F", shown)
    assert len(frames) > 3
    assert frames[-1] == plain  # the maze itself, drawn over the last frame
    lines = plain.count("\n")
    assert all(frame.count("\n") == lines for frame in frames[:-1])  # each frame overwrites the last
    assert len(set(frames[:-1])) == len(frames) - 1  # every frame opens more


def test_frames_open_the_record_in_order_to_the_whole_maze():
    document, order, carved = recorded_maze((5, 7), algorithm="kruskal", seed=3, braid=1.0)
    assert carved == 34 and len(order) > carved  # braiding opened more after the carve
    frames = list(carve_frames(document, order, per_frame=1))
    assert len(frames) == len(order) + 1
    walls = [frame.count(" ") for frame in frames]
    assert walls == sorted(walls)  # every frame opens one more passage
    grid = document.maze.grid
    links = np.zeros_like(document.maze.links)
    for cell, d in order:
        links[cell, d] = links[grid.neighbors[cell, d], grid.opposite[d]] = True
    assert np.array_equal(links, document.maze.links)


def test_solve_applies_to_a_printed_maze_and_no_other_writer_option_does():
    from blockmaze.applies import Context, why_not
    from blockmaze.commands import options_of

    printed_too = [o.name for o in options_of("generate") if o.writer and why_not(o, Context(None)) is None]
    assert printed_too == ["solve"]  # the one writer option a printed maze takes
    assert why_not(options_of("generate", "shade")[0], Context(None)) == "a printed maze (give --output FILE)"


def test_a_printed_maze_with_solve_shows_the_way_as_solution_does(capsys):
    args = ["generate", "6x5", "--seed", "3", "--braid", "0.4"]
    main([*args, "--solve", "bfs"])
    solved = capsys.readouterr()
    assert "does not apply" not in solved.err
    assert solved.out == printed(capsys, [*args, "--solution"])


def test_animate_solve_replays_the_solvers_walk_after_the_carve(capsys, monkeypatch):
    from blockmaze.pipeline import make_maze
    from blockmaze.replay import solve_frames

    args = ["generate", "5x6", "--seed", "2", "--fps", "240"]
    monkeypatch.setattr(cli, "_is_terminal", lambda stream: True)
    carve = re.split(r"\x1b\[\d+F", printed(capsys, [*args, "--animate", "--solution"]))
    shown = re.split(r"\x1b\[\d+F", printed(capsys, [*args, "--animate", "--solve", "tremaux"]))
    walk = [frame + "\n" for frame in solve_frames(make_maze((5, 6), seed=2), "tremaux", rng=2)]
    assert shown[:len(carve) - 1] == carve[:-1]  # the carve first, as without --solve
    assert shown[len(carve) - 1:-1] == walk  # then the solver's walk, a frame a visit
    assert shown[-1] == carve[-1]  # then the maze, its way drawn
