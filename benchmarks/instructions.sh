#!/usr/bin/env bash
# Instructions per recommendation under callgrind (benchmarks/instructions.py says what is run):
# the count of ROUNDS passes over the three scenarios less that of none, over 3 x ROUNDS.
# PYTHONHASHSEED=0 and one OpenBLAS thread make the count repeat (idle threads move it by ~0.1 M).
#
#   bash benchmarks/instructions.sh           # all (parse + recommend + estimate + JSON), json
#   ROUNDS=4 bash benchmarks/instructions.sh json
# Needs valgrind (apt-get install -y valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-10}
PY=${PY:-.venv/bin/python}
export PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

count() {  # phase rounds -> total instructions
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$PY" benchmarks/instructions.py \
    "$1" "$2" 2>"$work/log" >/dev/null || { cat "$work/log" >&2; exit 1; }
  sed -n 's/^==[0-9]*== Collected : //p' "$work/log"
}

for phase in "${@:-all json}"; do
  for one in $phase; do
    none=$(count "$one" 0)
    some=$(count "$one" "$ROUNDS")
    awk -v p="$one" -v a="$none" -v b="$some" -v n="$ROUNDS" \
      'BEGIN { printf "%s: %.3f M instructions a recommendation\n", p, (b - a) / (3 * n) / 1e6 }'
  done
done
