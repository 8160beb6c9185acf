"""``blockmaze serve`` as a command: a busy port is one line naming --port, exit 1."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.slow]

pytest.importorskip("uvicorn")


def test_a_busy_port_is_one_line_naming_port_and_exit_1():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "blockmaze.cli", "serve", "--port", str(port)],
                              check=False, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stdout == ""  # no banner for a server that never ran
    assert done.stderr.strip().splitlines() == [f"Error: port {port} is in use: choose another with --port"]


@pytest.mark.parametrize("signum", [2, 15, 1])  # SIGINT (Ctrl-C), SIGTERM, SIGHUP
def test_a_stop_signal_stops_the_server_with_one_word_and_exit_0(tmp_path, signum,
                                                                 terminal_signals):
    with _answering_server(tmp_path) as (server, _):
        server.send_signal(signum)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0, err
    assert err.strip().splitlines() == ["stopped"], err
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("blockmaze-studio-")]


def test_a_server_started_under_nohup_runs_on_after_a_hang_up(tmp_path):
    """``nohup blockmaze serve``: SIGHUP was ignored when it started, so a hang-up leaves it
    serving (it stopped before); SIGTERM still stops it."""
    import signal

    import httpx

    def nohup():
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

    with _answering_server(tmp_path, preexec_fn=nohup) as (server, url):
        server.send_signal(signal.SIGHUP)
        assert httpx.get(f"{url}/", timeout=30).status_code == 200
        assert server.poll() is None
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0 and err.strip().splitlines() == ["stopped"], err


@contextlib.contextmanager
def _answering_server(tmp_path, **popen):
    """``blockmaze serve`` (tests/studio_server.py) once it answers: (the process, its
    address); killed at the block's end."""
    from studio_server import serve_process

    server, url = serve_process(tmp_path, **popen)
    try:
        yield server, url
    finally:
        server.kill()


def _clone_named_blockmaze(tmp_path):
    """A copy of this checkout's package and build files in ``tmp_path/blockmaze`` (the clone's
    top folder, named like the package and holding no ``__init__.py``)."""
    import shutil
    from pathlib import Path

    import blockmaze

    root = Path(blockmaze.__file__).resolve().parent.parent
    if not (root / "pyproject.toml").is_file():
        pytest.skip("needs a checkout (an editable install), not an installed wheel")
    clone = tmp_path / "blockmaze"
    shutil.copytree(root / "blockmaze", clone / "blockmaze",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(root / name, clone / name)
    return clone


def _venv_with(tmp_path, clone):
    """A fresh virtual environment with ``clone`` installed editable (setuptools' finder); its
    other packages are this environment's."""
    import site
    import sysconfig
    from pathlib import Path

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                              "'purelib'))"], check=True, capture_output=True, text=True).stdout
    ours = [p for p in site.getsitepackages() + [sysconfig.get_path("purelib")]
            if Path(p).is_dir()]  # (its .pth files, our own install among them, are not read)
    Path(purelib.strip(), "the-tests-packages.pth").write_text("\n".join(dict.fromkeys(ours)))
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
               "--no-deps", "-e", str(clone)]
    done = subprocess.run(install, capture_output=True, text=True, timeout=600)
    if done.returncode:
        pytest.skip(f"cannot install the copy here: {done.stderr.strip().splitlines()[-1:]}")
    return python


def test_python_m_blockmaze_and_the_studio_work_from_the_folder_holding_the_clone(tmp_path):
    """From the folder that holds a clone named ``blockmaze``, installed editable (its finder
    comes after the module path, where the clone's folder is a namespace package): ``python -m
    blockmaze`` runs, and the studio's jobs (each command) answer, under ``python -m`` and the
    installed ``blockmaze`` script alike. (A plain install, and an editable one in setuptools'
    compat mode, put the package on the path itself: they worked before, and still do.)"""
    import os
    import time

    import httpx

    clone = _clone_named_blockmaze(tmp_path)
    python = _venv_with(tmp_path, clone)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    version = subprocess.run([str(python), "-m", "blockmaze", "--version"], cwd=tmp_path,
                             capture_output=True, text=True, env=env, timeout=120)
    assert version.returncode == 0 and version.stdout.startswith("blockmaze, version"), (
        version.stderr[-1000:])
    for program in ([str(python), "-m", "blockmaze"], [str(python.parent / "blockmaze")]):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen(program + ["serve", "--port", str(port)], cwd=tmp_path,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env=env)
        try:
            assert f":{port}/" in server.stdout.readline()
            url = f"http://127.0.0.1:{port}/api"
            for _ in range(400):
                try:
                    httpx.get(f"{url}/options", timeout=30)
                    break
                except httpx.ConnectError:
                    time.sleep(0.05)
            for query in ("dungeon?size=20x20&seed=1&format=schem",
                          "blockwise?size=11x11&seed=1&format=schem",
                          "generate?size=5x5&seed=1&format=png"):
                answer = httpx.get(f"{url}/{query}", timeout=120)
                assert answer.status_code == 200, (program, query, answer.text)
        finally:
            server.terminate()
            server.communicate(timeout=30)
