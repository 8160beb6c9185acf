"""One library call per job: the Python API writes byte for byte what the command writes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.cli import main
from blockmaze.pipeline import make_maze

CASES = [  # (grid kind, size typed, constructor shape, command options, the same for the API)
    ("square", "6x9", (6, 9), ["--wall", "2", "--passage", "1x3", "--roof", "--lights"],
     dict(wall=(2, 2), passage=(1, 3), roof=True, lights=True)),
    ("hex", "5x7", (5, 7), ["--scale", "5", "--height", "2"], dict(scale=5, height=2)),
    ("layered", "2x4x5", (2, 4, 5), ["--passage", "2", "--no-floor"], dict(passage=2, floor=False)),
]
FORMATS = ["schem", "litematic", "glb", "tmx", "png", "json"]


@pytest.mark.slow
@pytest.mark.parametrize("kind, size, shape, flags, options", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("suffix", FORMATS)
def test_api_writes_the_commands_bytes(kind, size, shape, flags, options, suffix, tmp_path):
    solution = suffix != "tmx"  # and one without
    (tmp_path / "cli").mkdir(), (tmp_path / "api").mkdir()  # same names: sidecars are named after them
    command = tmp_path / "cli" / f"maze.{suffix}"
    args = ["generate", size, "-g", kind, "-a", "wilson", "--seed", "5", "--entrances",
            "--braid", "0.25", "-o", str(command)] + flags + (["--solution"] if solution else [])
    assert main(args) == 0
    document = make_maze(shape, kind, "wilson", seed=5, braid=0.25, entrances=True)
    api = tmp_path / "api" / f"maze.{suffix}"
    picture = {"style": "walls"} if suffix == "png" else {}
    bm.save(document, api, solution=solution, **options, **picture)
    written = sorted(p.name for p in (tmp_path / "cli").iterdir())  # (a layered tile map: a file a level)
    assert sorted(p.name for p in (tmp_path / "api").iterdir()) == written
    assert api.name in written or (kind == "layered" and f"maze-2.{suffix}" in written)
    for name in written:
        assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_build_is_what_save_writes(tmp_path):
    """build() gives the volume that save() writes, for a maze of any kind."""
    maze = bm.generate((3, 4, 4), kind="layered", rng=2)
    volume = bm.build(maze, height=2)
    assert (bm.save(maze, tmp_path / "m.schem", height=2) == volume).all()


def test_save_refuses_options_the_format_does_not_take(tmp_path):
    with pytest.raises(bm.BlockmazeError, match="png does not take mc_version"):
        bm.save(bm.generate((3, 3), rng=1), tmp_path / "m.png", mc_version="1.20.4")
    assert not list(tmp_path.iterdir())


@pytest.mark.filterwarnings("ignore::blockmaze.jobs.UnusedOptionWarning")  # (json, tmx, png)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.integers(1, 6), cols=st.integers(1, 6), seed=st.integers(0, 2 ** 32),
       wall=st.integers(1, 2), passage=st.integers(1, 3), height=st.integers(1, 4),
       roof=st.booleans(), lights=st.booleans(), solution=st.booleans(), entrances=st.booleans(),
       suffix=st.sampled_from(["schem", "litematic", "tmx", "png", "json", "obj"]))
def test_a_command_run_is_make_maze_then_save(tmp_path_factory, rows, cols, seed, wall, passage,
                                              height, roof, lights, solution, entrances, suffix):
    """jobs.run (what the command calls) writes what make_maze and save write for its options."""
    from blockmaze.jobs import run

    folder = tmp_path_factory.mktemp("run")
    (folder / "job").mkdir(), (folder / "api").mkdir()  # same names: sidecars are named after them
    blocks = dict(wall=wall, passage=passage, height=height, roof=roof, lights=lights)
    run("generate", dict(size=(rows, cols), seed=seed, entrances=entrances, solution=solution,
                         output=str(folder / "job" / f"m.{suffix}"), **blocks))
    document = make_maze((rows, cols), seed=seed, entrances=entrances)
    bm.save(document, folder / "api" / f"m.{suffix}", solution=solution, **blocks)
    written = sorted(p.name for p in (folder / "job").iterdir())
    assert written == sorted(p.name for p in (folder / "api").iterdir())
    for name in written:
        assert (folder / "job" / name).read_bytes() == (folder / "api" / name).read_bytes(), name
