"""Shared test settings and helpers."""

import os

from hypothesis import HealthCheck, settings

# Kernels compile on first use, so no per-example deadline; CI runs are derandomized (reproducible).
settings.register_profile("dev", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("dev"), derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
