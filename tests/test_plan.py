"""The resolved plan: one destination parsed once, block settings with every default applied once,
one writing path for every case, and one rule for where an option applies (the command's
warnings and the studio's verdicts agree)."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze import jobs
from blockmaze.blocks import settings as block_settings
from blockmaze.blocks.settings import BlockSettings
from blockmaze.commands import options_of
from blockmaze.errors import BlockmazeError, ParameterError
from blockmaze.export.destination import destination
from blockmaze.export.target import STDOUT
from blockmaze.web.jobs import case_key, describe


def test_standard_output_is_parsed_once():
    where = destination("-", "svg")
    assert where.target is STDOUT and where.to_stdout and not where.is_path
    assert destination("m.tmx").is_path
    with pytest.raises(BlockmazeError, match="needs --format"):
        destination("-")
    with pytest.raises(BlockmazeError, match="a file per level"):
        destination("-", "tmx").for_levels(2)


def test_each_default_is_applied_once_a_run(monkeypatch, tmp_path):
    """A run resolves its block settings once: the layered passage default (2) and the weave
    wall default (4) are decided in BlockSettings.resolve alone."""
    calls = []
    real = BlockSettings.resolve.__func__

    def counted(cls, *args, **kwargs):
        calls.append(args)
        return real(cls, *args, **kwargs)

    monkeypatch.setattr(BlockSettings, "resolve", classmethod(counted))
    done = jobs.run("generate", size=(2, 3, 3), kind="layered", seed=1,
                    output=str(tmp_path / "t.schem"))
    assert len(calls) == 1
    assert done.volume.shape[1:] == (3 * 2 + 4, 3 * 2 + 4)  # passages of 2, walls of 1
    assert BlockSettings.resolve("weave").wall == 4


def test_library_errors_name_parameters_and_the_command_its_flags(tmp_path):
    with pytest.raises(ParameterError, match=r"drop floor=False$"):
        bm.save(bm.generate((3, 3), rng=1), io.BytesIO(), format="schem", lights=True,
                floor=False)
    with pytest.raises(BlockmazeError, match=r"drop --no-floor$"):
        jobs.run("generate", size=(3, 3), lights=True, floor=False,
                 output=str(tmp_path / "m.schem"))
    with pytest.raises(ParameterError, match=r"^split cuts"):
        bm.save(bm.generate((3, 3), rng=1), tmp_path / "m.glb", split=16)
    with pytest.raises(BlockmazeError, match=r"^--split cuts"):
        jobs.run("generate", size=(3, 3), split=16, output=str(tmp_path / "m.glb"))
    with pytest.raises(BlockmazeError, match=r"needs --scale 3 or more"):
        jobs.run("generate", size=(3, 3), kind="hex", scale=2, output=str(tmp_path / "m.schem"))


def test_one_writing_path_writes_every_level_or_none(tmp_path):
    dungeon = bm.generate_dungeon((6, 8), rng=4, levels=2)
    (tmp_path / "d-2.tmx").mkdir()  # the second level cannot be written
    with pytest.raises(BlockmazeError):
        bm.save(dungeon, tmp_path / "d.tmx")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d-2.tmx"]
    (tmp_path / "d-2.tmx").rmdir()
    volume = bm.save(dungeon, tmp_path / "d.tmx")
    assert volume.shape[0] == 2
    assert {p.name for p in tmp_path.iterdir()} >= {"d-1.tmx", "d-2.tmx"}


def test_companions_are_what_the_writer_wrote_beside(tmp_path):
    done = jobs.run("generate", size=(3, 3), seed=1, output=str(tmp_path / "m.obj"))
    assert [p.name for p in done.companions] == ["m.mtl"]
    assert repr(done) == f"Outcome(paths=['{tmp_path / 'm.obj'}'], volume=<4x7x7 blocks>)"


def test_the_plan_holds_every_decision():
    from blockmaze.writing import plan

    chosen = plan(io.BytesIO(), "schem", blocks=BlockSettings.resolve("layered"), seed=5,
                  mc_version="1.18")
    assert chosen.seed == 5 and chosen.options["mc_version"] == "1.18"
    assert chosen.blocks.passage == 2 and chosen.writer.tiles and chosen.writer.streams
    with pytest.raises(TypeError):
        chosen.options["mc_version"] = "1.20.4"  # frozen


VERDICTS = describe()["verdicts"]
GRIDS = ("square", "hex", "polar", "layered", "weave", "triangle", "upsilon", "labyrinth")
FORMATS = ("schem", "png", "tmx", "glb", "stl", "maze", "structure")
SUFFIX = {"structure": ".nbt", "maze": ".json"}


def _given(command: str, name: str):
    """A value for option ``name`` that differs from its default (None: none worth trying)."""
    option = options_of(command, name)[0]
    if option.switch:
        return not option.default
    choices = getattr(option.type, "choices", None)
    if choices:
        return next((c for c in choices if c != option.default), None)
    return {"wall": 2, "passage": 2, "scale": 6, "height": 5, "cell_size": 8, "chunk": 16,
            "y": 0, "time": 100, "block_size": 2.0, "circuits": 7, "weave": 0.2,
            "braid": 0.2, "finger": (8.0, 3.0)}.get(name)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(grid=st.sampled_from(GRIDS), fmt=st.sampled_from(FORMATS), unicursal=st.booleans(),
       name=st.sampled_from([o.name for o in options_of("generate")
                             if not o.argument and o.studio and not o.process
                             and o.where != "printed" and o.name not in ("format_", "seed",
                                                                           "mask", "kind")]))
def test_the_studio_shows_what_the_command_uses(tmp_path, grid, fmt, unicursal, name):
    """For a generate job, the studio hides an option exactly when the run warns that it does
    not apply (the page looks the server's verdicts up; the run decides by the same rule)."""
    unicursal = unicursal and grid in ("square", "hex", "polar")
    value = _given("generate", name)
    if value is None or (name == "unicursal" and grid not in ("square", "hex", "polar")):
        return
    size = {"polar": (4,), "layered": (2, 3, 3), "labyrinth": None}.get(grid, (3, 4))
    values = {"kind": grid, "seed": 1, name: value,
              "output": str(tmp_path / f"m{SUFFIX.get(fmt, '.' + fmt)}"), "format_": fmt}
    if size is not None:
        values["size"] = size
    if unicursal and name != "unicursal":
        values["unicursal"] = True
    flag = options_of("generate", name)[0].flag
    key = case_key("generate", fmt, grid=grid, unicursal=bool(values.get("unicursal")))
    hidden = flag in VERDICTS["generate"][key]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            jobs.run("generate", **values, given={name})
        except BlockmazeError:
            return  # a refusal (a weave maze's walls, a scale too small): nothing to compare
    warned = any(f"--{flag} does not apply" in str(w.message) for w in caught)
    assert warned == hidden, (values, key)


def test_block_settings_know_their_shapes():
    s = BlockSettings.resolve("square", wall=(1, 2), passage=3, roof=True)
    assert s.plan_shape((2, 3)) == (9, 17) and s.volume_shape((9, 17)) == (5, 9, 17)
    assert s.groove == 3 and block_settings.default_scale("hex") == 4
    assert np.prod(s.plan_shape((2, 3))) == 153


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(("hex", "triangle", "upsilon", "polar")),
       rows=st.integers(1, 7), cols=st.integers(1, 7), scale=st.integers(3, 9))
def test_the_least_plan_is_a_lower_bound(kind, rows, cols, scale):
    """The arithmetic refusals never refuse what would fit: a rasterized plan has at least the
    blocks blocks.least counts for it (and not many more: the bound is tight enough to refuse)."""
    from blockmaze.blocks import rasterize
    from blockmaze.blocks.least import least_plan_blocks
    from blockmaze.blocks.raster import min_scale

    shape = (rows,) if kind == "polar" else (rows, cols)
    scale = max(scale, min_scale(kind))
    try:
        maze = bm.generate(shape, rng=1, kind=kind)
    except BlockmazeError:  # (a triangle grid of one column falls apart)
        return
    plan = rasterize(maze, scale)
    least = least_plan_blocks(kind, shape, scale)
    assert least <= plan.size <= 4 * least + 200


@pytest.mark.parametrize("args, output", [
    (("generate", "600", "-g", "polar", "--unicursal", "--memory-limit", "500M"), "m.schem"),
    (("generate", "-g", "labyrinth", "--circuits", "199", "--memory-limit", "200M"), "m.schem"),
    (("generate", "-g", "labyrinth", "--circuits", "199", "--finger", "8x3", "--memory-limit",
      "200M"), "m.stl"),
    (("generate", "900", "-g", "hex", "--memory-limit", "100M"), "m.schem"),
    # a layered maze's blocks, counted from its levels; pictures drawn whole
    (("generate", "4x1000x1000", "-g", "layered", "--memory-limit", "200M"), "m.glb"),
    (("generate", "2x300x300", "-g", "layered", "--memory-limit", "20M"), "m.tmx"),
    (("generate", "4x1000x1000", "-g", "layered", "--memory-limit", "200M"), "m.png"),
    (("generate", "300x300", "-g", "hex", "--memory-limit", "200M"), "m.png"),
    (("generate", "1000", "-g", "polar", "--memory-limit", "200M"), "m.svg"),
    (("blockwise", "60x600x600", "--memory-limit", "200M"), "m.glb"),  # (9 s and 288 MB before)
    (("blockwise", "3000x3000", "--memory-limit", "200M"), "m.vox"),
])
def test_a_refusal_for_memory_comes_before_any_work(args, output, tmp_path, monkeypatch, capsys):
    import blockmaze.blockwise.strict
    import blockmaze.mazes.generation
    import blockmaze.mazes.labyrinths
    from blockmaze.cli import main

    def never(*args, **kwargs):
        raise AssertionError("made before refusing")

    monkeypatch.setattr(blockmaze.mazes.generation, "generate", never)
    monkeypatch.setattr(blockmaze.mazes.labyrinths, "labyrinth", never)
    for made in ("strict_plan", "strict_volume_3d"):
        monkeypatch.setattr(blockmaze.blockwise.strict, made, never)
    code = main(["-q", *args, "-o", str(tmp_path / output)])
    err = capsys.readouterr().err
    assert code == 2 and "needs about" in err and "--memory-limit" in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


def test_a_file_size_limit_ends_a_bedrock_world_in_one_line(tmp_path):
    """LevelDB's own error (a file-size limit, a full disk) is one line, exit 1, nothing left."""
    import os
    import subprocess
    import sys

    pytest.importorskip("leveldb")
    script = ("import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (300_000, 300_000));"
              "from blockmaze.cli import main; sys.exit(main(['generate', '300', '--seed', '1', "
              f"'-o', {str(tmp_path / 'w.mcworld')!r}]))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("\n") == 1 and "File too large" in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []
