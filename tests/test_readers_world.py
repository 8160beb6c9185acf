"""A Java world folder given to ``blockmaze info`` with hostile content stays bounded: a region
file's size is checked before it is read (a sparse 1,000 MB region took 14 s and 1 GB and was
read whole), and a link inside the world is refused, not followed to what it points at outside
(the world's own files are read, nothing else)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from blockmaze.cli import main

HERE = Path(__file__).parent


def info(path: Path) -> tuple[int, list[str], float, int]:
    """``blockmaze info PATH`` in a child: exit code, stderr lines, seconds, the child's peak
    resident memory in KiB (read from its own rusage by a wrapper)."""
    probe = ("import resource, subprocess, sys; "
             "code = subprocess.call([sys.executable, '-m', 'blockmaze', 'info', sys.argv[1]], "
             "stdout=subprocess.DEVNULL); "
             "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, PYTHONPATH=str(HERE.parent)),
                            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31)))
    code, peak = (int(v) for v in result.stdout.split())
    return code, result.stderr.strip().splitlines(), time.monotonic() - start, peak


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("written") / "World"
    assert main(["generate", "4x4", "--seed", "1", "--format", "world", "-o", str(path)]) == 0
    return path


@pytest.fixture
def world(written, tmp_path) -> Path:
    """A copy of the world blockmaze wrote, for a test to change."""
    return Path(shutil.copytree(written, tmp_path / "World"))


def test_a_huge_sparse_region_is_refused_by_its_size_before_it_is_read(world):
    with open(world / "region" / "r.5.5.mca", "wb") as file:
        file.truncate(1000 << 20)
    code, err, seconds, peak = info(world)
    assert code == 1 and len(err) == 1 and "region/r.5.5.mca is 1048576000 bytes" in err[0], err
    assert peak < 300 << 10, f"{peak} KiB"  # the program's own start, not the region


@pytest.mark.parametrize("link", ["region file", "region folder"])
def test_a_link_inside_the_world_is_not_followed(world, tmp_path, link):
    outside = tmp_path / "outside"
    outside.mkdir()
    if link == "region file":
        (outside / "secret").write_bytes(bytes(8192))
        (world / "region" / "r.7.7.mca").symlink_to(outside / "secret")
        says = "region/r.7.7.mca is a link"
    else:
        os.rename(world / "region", outside / "region")
        (world / "region").symlink_to(outside / "region")
        says = "region is a link"
    code, err, _, _ = info(world)
    assert code == 1 and len(err) == 1 and says in err[0], err
