"""--difficulty, info --analysis and --solve on pictures, as the command and the library run them.

The calibration run (1,000 mazes a band, kind and size) is bench/bench_solvers.py's; here a
small sample of every kind at its smallest calibrated size.
"""

import json

import numpy as np
import pytest

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.mazes import difficulty
from blockmaze.pipeline import make_maze

SMALL = {kind: sizes[0]["shape"] for kind, sizes in difficulty.table()["kinds"].items()}


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_every_kind_lands_in_the_band_asked(kind):
    weave = 0.5 if kind == "weave" else 0.0
    for band, (low, high) in difficulty.BANDS.items():
        for seed in range(3):
            document = make_maze(tuple(SMALL[kind]), kind=kind, seed=seed, difficulty=band,
                                 weave=weave)
            asked = document.extra["difficulty"]
            assert low <= asked["score"] <= high, (kind, band, seed, asked)
            # the score printed is the maze's own, measured again from the document
            ends = document.endpoints
            again = difficulty.measured(document.maze, ends.start, ends.goal)["score"]
            assert again == asked["score"]
            # and the document remakes it from its algorithm and seed alone
            plain = make_maze(tuple(SMALL[kind]), kind=kind, algorithm=document.algorithm,
                              seed=document.seed, weave=weave)
            assert plain.maze == document.maze


def test_a_number_asks_for_a_band_round_it_and_a_seed_decides():
    first = make_maze((10, 10), seed=11, difficulty=0.5)
    assert 0.4 <= first.extra["difficulty"]["score"] <= 0.6
    again = make_maze((10, 10), seed=11, difficulty=0.5)
    assert again.maze == first.maze and again.algorithm == first.algorithm


def test_the_reference_spreads_difficulty_evenly():
    # the reference's own mazes rank evenly: each band's share of a recipe pool near a third
    for sizes in difficulty.table()["kinds"].values():
        for size in sizes:
            q = np.asarray(size["score"])
            shares = [difficulty._rank(v, size["score"]) for v in q]
            assert shares[0] <= 0.05 and shares[-1] >= 0.95
            assert np.all(np.diff(q) >= 0)


def test_the_command_prints_the_measured_difficulty(capsys, tmp_path):
    out_file = tmp_path / "m.json"
    code, out, err = run(capsys, "generate", "12x12", "--seed", "3", "--difficulty", "hard",
                         "-o", str(out_file))
    assert code == 0, err
    assert "(hard; asked hard)" in err
    code, out, err = run(capsys, "info", str(out_file), "--analysis")
    assert code == 0, err
    assert "analysis:" in out and "decision points:" in out and "(hard)" in out
    code, out, err = run(capsys, "info", str(out_file), "--analysis", "--json")
    report = json.loads(out)
    assert report["analysis"]["cells"] == 144
    assert report["analysis"]["difficulty"]["band"] == "hard"


@pytest.mark.parametrize("args, message", [
    (("--difficulty", "tough"), "--difficulty must be easy, medium, hard or a number from 0 to 1, "
                                "got 'tough'"),
    (("--difficulty", "hard", "-a", "prim"), "--difficulty chooses the algorithm and the carve "
                                             "itself: leave out --algorithm"),
    (("--difficulty", "hard", "--braid", "0.5"), "--difficulty is measured on perfect mazes: "
                                                 "leave out --braid"),
])
def test_what_difficulty_cannot_do_is_refused_in_one_line(capsys, args, message):
    code, out, err = run(capsys, "generate", "8x8", *args)
    assert code == 2
    assert err.strip() == f"Error: {message}"


def test_a_text_map_is_measured_as_the_maze_it_draws(capsys, tmp_path):
    document, text = tmp_path / "m.json", tmp_path / "m.txt"
    for path in (document, text):
        args = ("generate", "9x7", "--seed", "5", "--braid", "0.3", "-o", str(path))
        assert run(capsys, *args, *(("--solution",) if path == text else ()))[0] == 0
    reports = []
    for path in (document, text):
        code, out, err = run(capsys, "info", str(path), "--analysis", "--json")
        assert code == 0, err
        reports.append(json.loads(out)["analysis"])
    assert reports[0] == reports[1]  # the same maze, start and goal
    hexes = tmp_path / "h.txt"
    assert run(capsys, "generate", "4x5", "-g", "hex", "--seed", "5", "-o", str(hexes))[0] == 0
    code, out, err = run(capsys, "info", str(hexes), "--analysis")
    assert code == 0 and "measured as: walkable blocks" in out


def test_solve_draws_the_solvers_path_on_the_picture():
    # a braided maze, where a walker's way is not the shortest one
    for seed in range(40):
        maze = bm.braid(bm.generate((8, 8), rng=seed), 0.6, rng=seed)
        ends = bm.place_endpoints(maze)
        walk = bm.solve(maze, "tremaux", ends.start, ends.goal)
        if walk.steps > bm.solve(maze, "bfs", ends.start, ends.goal).steps:
            break
    from blockmaze.export.pictures import svg_text
    from blockmaze.grids.geometry import cell_shapes

    svg = svg_text(maze, endpoints=ends, solve="tremaux", cell_size=10)
    shortest = svg_text(maze, endpoints=ends, solution=True, cell_size=10)
    assert svg != shortest
    line = next(part for part in svg.split("<path") if 'class="solution"' in part)
    drawn = line.split(' d="M')[1].split('"')[0].replace("L", " ").replace(",", " ").split()
    points = np.array(drawn, dtype=float).reshape(-1, 2)
    centres = cell_shapes(maze.grid).centroids()[walk.path] * 10
    assert len(points) == 2 * len(walk.path) - 1  # its cells' centres, a door's middle between
    assert np.allclose(points[::2] - points[0], centres - centres[0], atol=0.1)


def test_the_studio_replays_the_carve_the_difficulty_chose(tmp_path):
    from blockmaze.web.carving import carve_record
    from blockmaze.web.jobs import Limits

    query = {"size": "9x9", "seed": "4", "difficulty": "hard", "solve": "tremaux"}
    record = carve_record(query, Limits(), None, str(tmp_path))
    made = make_maze((9, 9), seed=4, difficulty="hard")
    steps = np.array(record["steps"]).reshape(-1, 2)
    carved = {frozenset(map(int, pair)) for pair in steps}
    grid = made.maze.grid
    passages = {frozenset((c, int(grid.neighbors[c, d])))
                for c, d in zip(*np.nonzero(made.maze.links), strict=True)}
    assert carved == passages
    walk = bm.solve(made.maze, "tremaux", made.endpoints.start, made.endpoints.goal)
    assert record["solve"]["path"] == walk.path.tolist()
    assert record["solve"]["visits"] == walk.visits.tolist()
