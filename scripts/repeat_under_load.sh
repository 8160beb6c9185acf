#!/usr/bin/env bash
# Runs pytest RUNS times the way a user might leave it running: under nohup (SIGHUP ignored), in
# a random order (pytest-randomly, a new seed each run), beside LOAD busy processes (a second CPU
# load on a small machine), with the arguments given (by default the memory and signal tests).
# Prints each run's last line and the count of failed runs; the status is 1 if any run failed.
#
#   bash scripts/repeat_under_load.sh [RUNS [LOAD [PYTEST ARGS...]]]
#   bash scripts/repeat_under_load.sh 20 2 tests/test_kill.py -p xdist -n 2
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
load=${2:-2}
shift 2 2>/dev/null || shift $#
args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(tests/test_memory_estimates.py tests/test_kill.py tests/test_kill_startup.py
        tests/test_all_or_nothing.py)
fi
spinners=()
for _ in $(seq "$load"); do  # each stops by itself after an hour
  python -c 'import time
end = time.monotonic() + 3600
while time.monotonic() < end: pass' &
  spinners+=($!)
done
trap 'kill "${spinners[@]}" 2>/dev/null' EXIT
failed=0
log=$(mktemp)
for run in $(seq "$runs"); do
  seed=$((RANDOM * 32768 + RANDOM))
  nohup python -m pytest -q -p no:cacheprovider -p randomly --randomly-seed="$seed" \
    "${args[@]}" > "$log" 2>&1
  status=$?
  echo "run $run (--randomly-seed=$seed): exit $status, $(tail -n 1 "$log")"
  if [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    grep -E '^(FAILED|ERROR)' "$log"
  fi
done
rm -f "$log"
echo "$failed of $runs runs failed (beside $load busy processes, under nohup, in random order)"
[ "$failed" -eq 0 ]
