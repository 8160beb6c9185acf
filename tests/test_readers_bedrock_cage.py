"""Issue 48 item 1: ``blockmaze info`` reads a Bedrock world (.mcworld) in a cage. Each crafted
world below, through the command in a child process: one line and exit 1 within a few seconds
(a stop: its own line and 128 + the signal within 1 s), never a byte read outside the world,
never a hang. Before: the escapes exited 0 having read the file outside, /dev/zero, a FIFO and a
huge sparse file hung ``info`` until it was killed, and a stop waited for LevelDB (4 s)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from blockmaze.cli import main

pytest.importorskip("leveldb")
pytestmark = [pytest.mark.slow]

HERE = Path(__file__).parent
UP = "../" * 12  # from the folder the world's db/ is copied into, up to the root
HANG = 20  # seconds: a child still running by then hangs (the refusals come in under 3)


def info(path, tmp: Path | None = None, **env) -> tuple[int, list[str], float]:
    """``blockmaze info PATH`` in a child, its temporaries under ``tmp``: exit code (None: it
    hung and was killed), stderr lines, seconds."""
    settings = {**os.environ, "PYTHONPATH": str(HERE.parent), "BLOCKMAZE_INFO_SECONDS": "10", **env}
    if tmp is not None:
        settings["TMPDIR"] = str(tmp)
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "blockmaze", "info", str(path)], env=settings,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                             preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)))
    try:
        _, err = child.communicate(timeout=HANG)
        code = child.returncode
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        _, err = child.communicate()
        code = None
    return code, err.decode().strip().splitlines(), time.monotonic() - start


def refused(path, says: str, **env) -> str:
    code, err, seconds = info(path, **env)
    assert code == 1 and len(err) == 1 and err[0].startswith("Error: "), (code, err)
    assert says in err[0] and seconds < 10, (err, seconds)
    return err[0]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """A small Bedrock world blockmaze wrote."""
    path = tmp_path_factory.mktemp("world") / "m.mcworld"
    assert main(["generate", "6x7", "--seed", "2", "-o", str(path)]) == 0
    return path


def repacked(world: Path, out: Path, changes: dict[str, bytes | None]) -> Path:
    """``world`` with members replaced or added (``changes``: name -> bytes, None removes)."""
    with zipfile.ZipFile(world) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            if member.filename not in changes:
                target.writestr(member, source.read(member))
        for name, data in changes.items():
            if data is not None:
                target.writestr(name, data)
    return out


def manifest_outside(world: Path, tmp_path: Path) -> str:
    """A copy of the world's manifest outside it: the path CURRENT names to reach it."""
    secret = tmp_path / "secret"
    secret.mkdir()
    with zipfile.ZipFile(world) as source:
        (secret / "MANIFEST-000002").write_bytes(source.read("db/MANIFEST-000002"))
    return f"{UP}{secret.relative_to('/')}/MANIFEST-000002"


def test_current_naming_a_file_outside_the_world_is_refused(world, tmp_path):
    assert info(world)[:2] == (0, [])  # the world as written is read
    path = repacked(world, tmp_path / "esc.mcworld",
                    {"db/CURRENT": manifest_outside(world, tmp_path).encode() + b"\n"})
    refused(path, "db/CURRENT names")


def test_a_member_in_a_folder_of_db_cannot_stand_in_for_current(world, tmp_path):
    """Every member used to be copied by its last name, so db/x/CURRENT replaced db/CURRENT."""
    path = repacked(world, tmp_path / "shadow.mcworld",
                    {"db/x/CURRENT": manifest_outside(world, tmp_path).encode() + b"\n"})
    refused(path, "db/x/CURRENT: not a file LevelDB makes")


@pytest.mark.parametrize("target", ["/dev/zero", "fifo", "huge"])
def test_current_naming_a_device_a_fifo_or_a_huge_file_is_refused_at_once(world, tmp_path, target):
    if target == "fifo":
        os.mkfifo(tmp_path / "fifo")
    if target == "huge":
        with open(tmp_path / "huge", "wb") as file:
            file.truncate(1 << 36)  # 64 GiB of zeros, sparse: LevelDB read it as a manifest
    named = target if target.startswith("/") else str(tmp_path / target)
    path = repacked(world, tmp_path / "hang.mcworld", {"db/CURRENT": f"{UP}{named[1:]}\n".encode()})
    refused(path, "it must name a MANIFEST-NNNNNN file of db/")


@pytest.mark.parametrize("name", ["db/MANIFEST-1", "db/000005.exe", "db/..", "db/CURRENT.bak"])
def test_only_names_leveldb_makes_reach_it(world, tmp_path, name):
    refused(repacked(world, tmp_path / "names.mcworld", {name: b"x"}), "not a file LevelDB makes")


def test_records_inflating_past_the_limit_are_refused(world, tmp_path):
    """A table's zlib blocks inflate inside LevelDB: 16 KiB of table, a 16 MiB record."""
    import leveldb

    db = leveldb.LevelDB(str(tmp_path / "db"), create_if_missing=True)
    db.put(b"bomb", bytes(16 << 20))
    db.compact()
    db.close()
    files = {f"db/{p.name}": p.read_bytes() for p in (tmp_path / "db").iterdir() if p.name != "LOCK"}
    assert sum(map(len, files.values())) < 1 << 20
    with zipfile.ZipFile(world) as source:
        old = {f"db/{name[3:]}": None for name in source.namelist() if name.startswith("db/")}
    path = repacked(world, tmp_path / "bomb.mcworld", {**old, **files})
    refused(path, "records hold more than the 4194304 bytes", BLOCKMAZE_INFO_LIMIT="4M")


# --- a large world: stops and the time bound answered while LevelDB works ---------------------

@pytest.fixture(scope="module")
def large(tmp_path_factory) -> Path:
    """A world whose log LevelDB replays for seconds as it opens (4 s here)."""
    path = tmp_path_factory.mktemp("large") / "large.mcworld"
    result = subprocess.run([sys.executable, "-m", "blockmaze", "generate", "700x700", "--seed", "3",
                             "-o", str(path)], env=dict(os.environ, PYTHONPATH=str(HERE.parent)),
                            capture_output=True, check=True)
    assert result.returncode == 0
    return path


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_while_leveldb_reads_is_answered_within_a_second(large, tmp_path, signum):
    settings = dict(os.environ, PYTHONPATH=str(HERE.parent), TMPDIR=str(tmp_path))
    child = subprocess.Popen([sys.executable, "-m", "blockmaze", "info", str(large)], env=settings,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_default_signal(signum))
    try:
        deadline = time.monotonic() + 60
        while not list(tmp_path.glob("blockmaze-info-*/db/LOCK")):  # LevelDB has begun its open
            assert child.poll() is None and time.monotonic() < deadline, "LevelDB never opened the db"
            time.sleep(0.002)
        sent = time.monotonic()
        child.send_signal(signum)
        code = child.wait(HANG)
        took = time.monotonic() - sent
    finally:
        child.kill()
    err = child.stderr.read().decode().strip().splitlines()
    assert code == 128 + signum and len(err) == 1 and "no file was changed" in err[0], (code, err)
    assert took < 1.0, f"answered after {took:.2f} s"
    assert list(tmp_path.iterdir()) == []  # the copied world removed
    assert not _workers(tmp_path), "the LevelDB worker was left running"


def test_the_time_bound_holds_while_leveldb_reads(large, tmp_path):
    code, err, seconds = info(large, tmp_path, BLOCKMAZE_INFO_SECONDS="0.5")
    assert code == 1 and len(err) == 1 and "took more than 0.5 s" in err[0], err
    assert seconds < 2.5, f"refused after {seconds:.2f} s (a start-up and the bound)"
    assert not _workers(tmp_path) and list(tmp_path.iterdir()) == []


def _default_signal(signum: int):
    """For the child: ``signum`` with its default action, whatever this run inherited (a
    background shell ignores SIGINT, ``nohup`` SIGHUP)."""
    return lambda: signal.signal(signum, signal.SIG_DFL)


def _workers(under: Path) -> list[str]:
    """Command lines of LevelDB workers still running on a db under ``under``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "leveldbworker.py" in line and str(under) in line:
            found.append(line)
    return found
