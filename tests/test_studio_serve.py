"""``blockmaze serve`` as a command: a busy port is one line naming --port, exit 1."""

from __future__ import annotations

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
def test_a_stop_signal_stops_the_server_with_one_word_and_exit_0(tmp_path, signum):
    import os
    import time

    import httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, TMPDIR=str(tmp_path))
    server = subprocess.Popen([sys.executable, "-m", "blockmaze", "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert f":{port}/" in server.stdout.readline()  # the banner: the port is bound
        for _ in range(400):  # until it answers (the banner comes just before uvicorn starts)
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/generate?size=3x3&seed=1&format=maze",
                          timeout=30)
                break
            except httpx.ConnectError:
                time.sleep(0.05)
        server.send_signal(signum)
        out, err = server.communicate(timeout=60)
    finally:
        server.kill()
    assert server.returncode == 0, err
    assert err.strip().splitlines() == ["stopped"], err
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("blockmaze-studio-")]
