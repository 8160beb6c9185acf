"""Run the signal and kill tests many times; count failures per test (timing luck shows here).

    python bench/bench_signals.py             # 200 rounds of every signal and kill test
    python bench/bench_signals.py --quick     # 5 rounds
    python bench/bench_signals.py --rounds 50 --kills 5   # BLOCKMAZE_KILLS for tests/test_kill.py

Each round is one ``pytest`` process over the tests below (each synchronises on the phases a run
reports, see docs/stops.md, never on a guessed sleep); the table gives, per test, how many times
it ran and failed, and the slowest run. Target: 0 failures.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from xml.etree import ElementTree

ROOT = Path(__file__).resolve().parent.parent
TESTS = [
    "tests/test_kill.py",
    "tests/test_kill_startup.py",
    "tests/test_kernels.py::test_a_stop_during_a_compile_is_raised_once_the_compile_is_over",
    "tests/test_all_or_nothing.py::test_a_signal_during_the_renames_lets_them_finish_and_says_so",
    "tests/test_all_or_nothing.py::test_a_signal_while_a_temporary_is_made_stops_the_run_once_it_is_noted",
    "tests/test_cli_trust.py::test_a_stopped_run_is_one_line_and_changes_nothing",
]


def one_round(report: Path, env: dict) -> list[tuple[str, bool, float, str]]:
    """Run the tests once: (test, passed, seconds, first line of the failure) per test."""
    subprocess.run([sys.executable, "-m", "pytest", *TESTS, "-q", "-p", "no:cacheprovider",
                    f"--junitxml={report}"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    results = []
    for case in ElementTree.parse(report).iter("testcase"):
        name = f"{case.get('classname', '').rsplit('.', 1)[-1]}::{case.get('name')}"
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if case.find("skipped") is not None:
            continue
        message = "" if problem is None else (problem.get("message") or "").splitlines()[0][:100]
        results.append((name, problem is None, float(case.get("time", 0)), message))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="5 rounds")
    parser.add_argument("--kills", type=int, default=None,
                        help="kills per scenario in tests/test_kill.py (its default: 15)")
    args = parser.parse_args()
    rounds = 5 if args.quick else args.rounds
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if args.kills is not None:
        env["BLOCKMAZE_KILLS"] = str(args.kills)
    runs: dict[str, int] = defaultdict(int)
    failures: dict[str, list[str]] = defaultdict(list)
    slowest: dict[str, float] = defaultdict(float)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder, "report.xml")
        for number in range(1, rounds + 1):
            for name, passed, seconds, message in one_round(report, env):
                runs[name] += 1
                slowest[name] = max(slowest[name], seconds)
                if not passed:
                    failures[name].append(message)
            failed = sum(len(found) for found in failures.values())
            print(f"round {number}/{rounds}: {failed} failures so far "
                  f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)
    width = max(map(len, runs), default=4)
    print(f"{'test':<{width}}  {'runs':>5}  {'failed':>6}  {'slowest s':>9}")
    for name in sorted(runs):
        print(f"{name:<{width}}  {runs[name]:>5}  {len(failures[name]):>6}  {slowest[name]:>9.2f}")
    for name, messages in sorted(failures.items()):
        for message in sorted(set(messages)):
            print(f"  {name}: {messages.count(message)}x {message}")
    total = sum(len(found) for found in failures.values())
    print(f"target: 0 failures in {rounds} rounds; {total} failures")


if __name__ == "__main__":
    main()
