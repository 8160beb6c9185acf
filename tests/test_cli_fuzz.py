"""Random argument lists thrown at every command: never a traceback, one ``Error:`` line, and
exit code 2 for bad usage, 1 for a bad file or an unwritable output, 0 otherwise.

Arguments are built from each command's own options (found by introspection, so new options are
fuzzed too) with values drawn from pools of valid, borderline and hostile text. Numbers stay
small or absurd (never medium), so runs that succeed are tiny and the file runs well under a
minute. ``BLOCKMAZE_FUZZ_EXAMPLES`` sets the cases per command (default 2,000).
"""

from __future__ import annotations

import os
import signal

import click
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import blockmaze as bm
from blockmaze.support import kernels
from blockmaze.cli import cli, main

EXAMPLES = int(os.environ.get("BLOCKMAZE_FUZZ_EXAMPLES", "2000"))
COMMANDS = ("generate", "export", "blockwise", "dungeon", "info")

# small numbers, and numbers no run may take; nothing in between (slow runs)
SMALL = [str(n) for n in range(-2, 7)]
ABSURD = ["99999999999", "9" * 5001, "-" + "9" * 40, "1e9", "0x10", "1_000", "²", "٣", "３",
          "nan", "inf", "-inf", "1.5", ".5", "0.0", "1,2", " 3 ", "+3"]
SIZES = ["1", "2x3", "3x2", "3", "2x2x2", "1x1", "4x3", "3X4", "2×3", "0x3", "3x0", "²0x20",
         "3x", "x3", "1x2x3x4", "2 x 3", "9999999x9999999", "3x3x3x3", "-3x5"]
VALID_SIZES = ["1", "2x3", "3", "4x3", "3x3", "2x2x2", "2x4"]
JUNK = ["", " ", "-", "--", "x", "é", "\u202e", "a" * 300, "../", ":", "a:b", "3:2", "2:", ":5",
        "0:0", "5:2", "nope", "\t", "--nope", "-Z", "%s", "{}", "null", "true"]
THEMES = ["stone-bricks", "glass", "hedge", "deepslate-dungeon", "STONE-BRICKS", "nope"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Inputs of every kind and outputs aimed everywhere, in one temporary folder."""
    folder = tmp_path_factory.mktemp("fuzz")
    maze = bm.generate((3, 4), rng=1)
    doc = folder / "maze.json"
    bm.save_maze(bm.MazeDocument(maze, bm.place_endpoints(maze), "backtracker", 1), doc)
    bm.write(bm.extrude(bm.to_blocks(maze)), folder / "maze.schem")
    (folder / "mask.txt").write_text("X..\n...\n..X\n")
    from PIL import Image

    Image.fromarray(np.full((3, 3), 255, np.uint8)).save(folder / "mask.png")
    (folder / "theme.json").write_text('{"name": "t", "materials": {"wall": {"minecraft": "x"}}}')
    (folder / "junk.json").write_text('{"grid": [[[[[[[]]]]]]], "braid": 5}')
    (folder / "bytes.schem").write_bytes(bytes(range(256)))
    (folder / "empty.png").write_bytes(b"")
    (folder / "folder").mkdir()
    readonly = folder / "readonly.schem"
    readonly.write_bytes(b"old")
    readonly.chmod(0o444)
    inputs = [str(folder / n) for n in ("maze.json", "maze.schem", "mask.txt", "mask.png",
                                        "theme.json", "junk.json", "bytes.schem", "empty.png",
                                        "folder", "missing.json")] + ["/dev/null", "-"]
    suffixes = [s for f in bm.FORMATS.values() for s in f.suffixes] + [".xyz", ""]
    outputs = ([str(folder / f"out{s}") for s in suffixes]
               + [str(readonly), str(folder / "folder"), str(folder / "no" / "m.schem"),
                  "/dev/null", "-", str(folder / "nul\0l.schem")])
    return {"inputs": inputs, "outputs": outputs}


_STRATEGIES: dict = {}
VALID_NUMBERS = ["1", "2", "3", "0.5", "0", "99999999999"]  # and one absurd count


def _values_for(param: click.Parameter, files, careful: bool) -> st.SearchStrategy[str]:
    """Values worth trying for one option or argument (built once per parameter): a careful
    user's (mostly valid, so runs go deep) or a hostile one's."""
    key = (id(param), id(files), careful)
    if key not in _STRATEGIES:
        _STRATEGIES[key] = _build_values(param, files, careful)
    return _STRATEGIES[key]


def _build_values(param: click.Parameter, files, careful: bool) -> st.SearchStrategy[str]:
    """One flat pool (weighted by repetition, so one draw picks a value), and for the hostile
    user now and then random text without digits."""
    kind = param.type
    name = param.name or ""
    pool = list(VALID_NUMBERS) if careful else SMALL + ABSURD + JUNK
    if isinstance(kind, click.Choice):
        choices = [str(c) for c in kind.choices]
        pool = choices if careful else pool + choices * 3 + [c.upper() + "x" for c in choices]
    if name == "output":
        pool += files["outputs"] * 3
    elif isinstance(kind, click.Path) or name in ("mask", "document", "path", "theme"):
        pool += files["inputs"] * 4
    if name == "theme":
        pool += THEMES * 2
    if name in ("size", "wall", "passage", "cells"):
        pool = (VALID_SIZES * 3 if careful else pool) + (SIZES + ["auto"]) * 4
    if name in ("algorithm", "ordering"):
        pool += sorted(bm.ALGORITHMS) * (3 if careful else 1) + [
            "growing-tree:0.5", "growing-tree:2", "prim:x", ":"]
    if name == "room_size":
        pool += ["2:3", "1:1", "3"]
    if careful:
        return st.sampled_from(pool)
    text = st.text(st.characters(blacklist_categories=("Nd", "Cs")), max_size=8)
    return st.sampled_from(pool) | text


@st.composite
def argument_lists(draw, command_name: str, files):
    """A random argument list for ``blockmaze COMMAND``: mostly the command's own options."""
    command = cli.commands[command_name] if command_name != "--" else cli
    options = [p for p in command.params if isinstance(p, click.Option)]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    careful = draw(st.integers(0, 2)) == 0
    args = [] if command is cli else [command_name]
    for argument in arguments:
        if careful or draw(st.integers(0, 9)):  # usually present
            args.append(draw(_values_for(argument, files, careful)))
    for _ in range(draw(st.integers(0, 5)) if options else 0):
        option = draw(st.sampled_from(options))
        if careful and option.name in ("help", "version"):
            continue
        args.append(draw(st.sampled_from(option.opts + option.secondary_opts)))
        if not option.is_flag and (careful or draw(st.integers(0, 14))):  # a value, nearly always
            args.append(draw(_values_for(option, files, careful)))
    if not careful and draw(st.integers(0, 9)) == 0:  # a stray token somewhere
        args.insert(draw(st.integers(0, len(args))), draw(st.sampled_from(JUNK + SIZES)))
    if command is cli and args and draw(st.booleans()):
        args.append(draw(st.sampled_from(COMMANDS)))
    return args


class TooSlow(BaseException):
    """A case ran longer than :data:`CASE_SECONDS` (every run here is tiny or refused)."""


def _too_slow(signum, frame):
    raise TooSlow()


CASE_SECONDS = 20


def _check(capsys, args):
    capsys.readouterr()
    previous = signal.signal(signal.SIGALRM, _too_slow)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    try:
        code = main(list(args))
    except TooSlow:
        pytest.fail(f"blockmaze {args!r} ran longer than {CASE_SECONDS} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "internal error" not in err, (args, err)
    assert code in (0, 1, 2), (args, code, err)
    if code:
        lines = err.rstrip("\n").split("\n")
        assert lines[-1].startswith("Error: ") and len(lines[-1]) > len("Error: ") + 5, (args, err)
        assert sum(line.startswith("Error:") for line in lines) == 1, (args, err)  # one error line
    return code, err


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS + ("--",))
def test_random_argument_lists_get_one_line_and_an_exit_code(command, files, capsys,
                                                             monkeypatch):
    monkeypatch.chdir(os.path.dirname(files["outputs"][0]))  # relative outputs land there
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(argument_lists(command, files))
    def run(args):
        _check(capsys, args)

    with kernels.forced("python"):  # no compiling: every run here is tiny
        run()


@pytest.mark.parametrize("args, code, message", [
    (["generate", "²0x20"], 2, "size must be whole numbers"),
    (["generate", "3x3", "--seed", "-1"], 2, "--seed"),
    (["generate", "3x3", "--seed", "9" * 5001], 2, "--seed"),
    (["generate", "3x3", "--braid", "nan"], 2, "not a finite number"),
    (["generate", "3x3", "-o", "-"], 2, "needs --format"),
    (["generate", "3x3", "-o", "-", "-f", "obj"], 2, "also writes a .mtl file"),
    (["dungeon", "20x20", "--levels", "2", "-o", "-", "-f", "ascii"], 2, "a file per level"),
    (["generate", "3x3", "-o", "{tmp}/readonly.schem"], 1, "read-only"),
    (["generate", "3x3", "-o", "{tmp}/nul\0l.schem"], 2, "cannot hold a NUL"),
    (["dungeon", "12x12", "--levels", "99999999999"], 2, "--levels"),
    (["dungeon", "12x12", "--room-attempts", "99999999999"], 2, "--room-attempts is at most"),
    (["generate", "3x3", "-g", "upsilon", "-o", "{tmp}/u.schem", "--scale", "2"], 2,
     "an upsilon maze needs --scale"),
])
def test_known_bad_inputs(args, code, message, files, capsys, monkeypatch):
    folder = os.path.dirname(files["outputs"][0])
    monkeypatch.chdir(folder)
    args = [a.replace("{tmp}", folder) for a in args]
    assert _check(capsys, args) == (code, _check(capsys, args)[1])
    assert message in _check(capsys, args)[1]


def test_no_arguments_prints_the_help(capsys):
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Usage: blockmaze") and "Commands:" in out and err == ""
    assert main(["-V"]) == 0 and "blockmaze, version" in capsys.readouterr().out
