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
