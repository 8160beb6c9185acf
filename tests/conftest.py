"""Shared test settings and helpers."""

import os

import pytest
from hypothesis import HealthCheck, settings

from terminal_signals import as_in_a_terminal

# Kernels compile on first use, so no per-example deadline; CI runs are derandomized (reproducible).
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def terminal_signals():
    """The stop signals of a foreground job for the test's length (tests/terminal_signals.py):
    for a test that signals a run in its own process, whether pytest itself runs under nohup or
    in a script's background."""
    with as_in_a_terminal():
        yield
