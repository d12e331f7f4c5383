#!/usr/bin/env bash
# The Node job as a user runs it (README: `npm run example:node -- --once`): a first sync of the
# simulator's small tenant into a fresh data directory, then the same command again on that
# directory (a restarted job resumes with a delta). Each run must exit 0 and print its summary
# with every record applied and nothing pending, refused, in conflict or quarantined; the second
# must say it resumed and hold at least as many records. Prints what failed and exits 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
CLEAN='Pending pushes: 0   Refused: 0   Conflicts: 0   Quarantined: 0'

fail() {
  echo "node job: $1" >&2
  echo "--- stdout of the $2 run" >&2; cat "$dir/$2.out" >&2
  echo "--- stderr of the $2 run" >&2; tail -20 "$dir/$2.err" >&2
  exit 1
}

# run NAME EXPECTED-STDERR: one run of the job on the data directory, checked.
run() {
  local started=$SECONDS
  timeout 300 npm run --silent example:node -- --once --data-dir "$dir/data" >"$dir/$1.out" 2>"$dir/$1.err"
  local code=$?
  [ "$code" -eq 0 ] || fail "the $1 run exited with $code" "$1"
  grep -q "$2" "$dir/$1.err" || fail "the $1 run did not say \"$2\"" "$1"
  grep -Eq '^Total: [0-9,]+ records in' "$dir/$1.out" || fail "the $1 run printed no summary" "$1"
  grep -qF "$CLEAN" "$dir/$1.out" || fail "the $1 run left edits pending, refused, in conflict or quarantined" "$1"
  echo "node job, $1 run: $(grep -E '^Total:' "$dir/$1.out") ($((SECONDS - started)) s with start-up)"
}

total() { grep -E '^Total:' "$dir/$1.out" | sed -E 's/^Total: ([0-9,]+) records.*/\1/' | tr -d ,; }

run first 'Keeping the mirror in'
run restart 'Resuming from'
[ "$(total restart)" -ge "$(total first)" ] || fail "the restart holds $(total restart) records, fewer than the first run's $(total first)" restart
