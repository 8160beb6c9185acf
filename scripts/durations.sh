#!/usr/bin/env bash
# Runs the whole test suite once and writes its 60 slowest steps (a test's call, or the set-up of
# a fixture it is the first to use) to tests/durations.txt: what the `slow` marker is chosen from
# (pyproject.toml registers it; `pytest -m "not slow and not reader"` is the fast set). Install
# the readers first (scripts/install_readers.sh) so their tests time their real work; extra
# arguments go to pytest. The run's own status is the script's.
#
#   bash scripts/durations.sh
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
start=$(date +%s)
python -m pytest -q --durations=0 -p no:cacheprovider "$@" > "$log" 2>&1 || status=$?
seconds=$(( $(date +%s) - start ))
{
  echo "# The 60 slowest steps of a whole run (bash scripts/durations.sh): $(date -u +%Y-%m-%d),"
  echo "# $(nproc) cores, ${seconds} s in all; $(tail -n 1 "$log" | tr -d '=' | sed 's/^ *//')"
  grep -E '^[0-9]+\.[0-9]+s (setup|call|teardown) ' "$log" | head -n 60
} > tests/durations.txt
cat tests/durations.txt
exit "$status"
