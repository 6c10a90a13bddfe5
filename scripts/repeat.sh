#!/usr/bin/env bash
# Runs a test suite several times in a row and counts green and red runs, so that a flaky test
# shows itself before it teaches anyone to re-run until green.
#
#   scripts/repeat.sh RUNS WHAT [BUSY]
#     RUNS   how many runs
#     WHAT   swift, live or all (all = what `make test` runs: Swift, the JS state machine, live)
#     BUSY   how many of the runs (the last ones) keep every core busy with stress-ng meanwhile
#
# Each run gets its own throwaway PostgreSQL (scripts/postgres.sh). Every run's output is kept
# in a folder named at the end. stress-ng is bounded in time and stopped by its PID after each run.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:?usage: scripts/repeat.sh RUNS swift|live|all [BUSY]}
what=${2:?usage: scripts/repeat.sh RUNS swift|live|all [BUSY]}
busy=${3:-0}
case "$what" in
  swift) targets=(test-swift) ;;
  live) targets=(test-live) ;;
  all) targets=(test-swift test-js test-live) ;;
  *) echo "scripts/repeat.sh: WHAT is swift, live or all, not $what" >&2; exit 2 ;;
esac
if [ "$busy" -gt 0 ] && ! command -v stress-ng >/dev/null 2>&1; then
  echo "scripts/repeat.sh: stress-ng is not installed (scripts/install-deps.sh test installs it)" >&2
  exit 2
fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/pulldown-repeat.XXXXXX")
stress_pid=""
stop_stress() {
  if [ -n "$stress_pid" ]; then
    kill "$stress_pid" 2>/dev/null || true
    wait "$stress_pid" 2>/dev/null || true
    stress_pid=""
  fi
}
trap stop_stress EXIT

green=0
red=0
for run in $(seq 1 "$runs"); do
  label=""
  if [ "$run" -gt $((runs - busy)) ]; then
    # An hour at most, in case this script is killed before it can stop it.
    stress-ng --cpu "$(nproc)" --timeout 3600s --quiet & stress_pid=$!
    label=" (cores busy)"
  fi
  log="$logs/run-$run.log"
  started=$(date +%s)
  if scripts/postgres.sh run -- make --no-print-directory "${targets[@]}" >"$log" 2>&1; then
    green=$((green + 1)); verdict=green
  else
    red=$((red + 1)); verdict=red
  fi
  stop_stress
  echo "run $run/$runs$label: $verdict in $(( $(date +%s) - started )) s"
done
echo "$what: $green green, $red red of $runs runs ($busy with the cores busy); logs in $logs"
[ "$red" -eq 0 ]
