"""blockmaze starts everywhere: installed read-only and run by a user who cannot write there,
numba compiles without its cache (the warning only under -v); --help and --version never load
numba."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import blockmaze

PACKAGE = Path(blockmaze.__file__).parent


def _as_user_who_cannot_write() -> list[str]:
    """The command prefix that runs a program unable to write where the file modes forbid."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv is missing: cannot drop the right to write "
                    "anywhere (the venv's Python may not be reachable by 'nobody')")
    probe = subprocess.run([setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner",
                            "--", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"setpriv cannot drop capabilities here: {probe.stderr.decode().strip()}")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]


@pytest.fixture(scope="module")
def read_only_install(tmp_path_factory):
    """The package copied into a site folder (no bytecode, no numba cache), then made read-only,
    with a read-only home and NUMBA_CACHE_DIR; and a writable folder for outputs."""
    root = tmp_path_factory.mktemp("install")
    site = root / "site"
    shutil.copytree(PACKAGE, site / "blockmaze", ignore=shutil.ignore_patterns("__pycache__"))
    home = root / "home"
    cache = root / "numba-cache"
    home.mkdir()
    cache.mkdir()
    out = root / "out"
    out.mkdir()
    for path in (site, home, cache):
        subprocess.run(["chmod", "-R", "a-w", str(path)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "BLOCKMAZE_"))}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), PYTHONDONTWRITEBYTECODE="1")
    yield site, out, env, cache
    subprocess.run(["chmod", "-R", "u+w", str(root)], check=True)


def _run(site, out, env, *args):
    code = (f"import sys; sys.path.insert(0, {str(site)!r}); import blockmaze; "
            f"assert blockmaze.__file__.startswith({str(site)!r}), blockmaze.__file__; "
            "from blockmaze.cli import main; code = main(sys.argv[1:]); "
            "print('numba loaded' if 'numba' in sys.modules else 'no numba', file=sys.stderr); "
            "sys.exit(code)")
    return subprocess.run([*_as_user_who_cannot_write(), sys.executable, "-c", code, *args],
                          capture_output=True, text=True, env=env, cwd=out, timeout=300)


def test_the_install_is_really_read_only(read_only_install):
    site, out, env, cache = read_only_install
    probe = subprocess.run([*_as_user_who_cannot_write(), "sh", "-c",
                            f"touch {site}/blockmaze/x || touch {cache}/x || echo refused"],
                           capture_output=True, text=True)
    assert "refused" in probe.stdout and not (site / "blockmaze" / "x").exists()


@pytest.mark.slow
@pytest.mark.parametrize("cache_dir", [False, True], ids=["no cache dir", "NUMBA_CACHE_DIR read-only"])
def test_a_compiling_run_works_without_a_writable_cache(read_only_install, cache_dir):
    site, out, env, cache = read_only_install
    env = dict(env, BLOCKMAZE_KERNELS="numba")  # compile even this small maze
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = str(cache)
    target = f"maze-{cache_dir}.schem"
    result = _run(site, out, env, "generate", "5x5", "--seed", "1", "-o", target)
    assert result.returncode == 0, result.stderr
    assert "numba loaded" in result.stderr and "Traceback" not in result.stderr
    assert "Warning" not in result.stderr  # the cache warning is for -v only
    assert (out / target).read_bytes()[:2] == b"\x1f\x8b"
    assert not any(p.name.endswith((".nbi", ".nbc")) for p in site.rglob("*"))
    if cache_dir:  # -v tells why each run compiles anew
        result = _run(site, out, env, "-v", "generate", "5x5", "--seed", "1", "-o", target)
        assert result.returncode == 0 and "numba cannot cache" in result.stderr, result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["-V"], ["--version"], ["generate", "--help"], []])
def test_help_and_version_never_load_numba(read_only_install, args):
    site, out, env, _ = read_only_install
    result = _run(site, out, env, *args)
    assert result.returncode == 0 and "no numba" in result.stderr, result.stderr
    assert result.stdout.startswith(("Usage:", "blockmaze, version"))
