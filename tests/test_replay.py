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
