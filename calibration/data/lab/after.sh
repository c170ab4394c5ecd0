#!/bin/sh
# After sweep.sh: the three emulated devices measured with fio, then sweep2.sh.
cd "$(dirname "$0")/.."
while kill -0 "$(cat lab-runs/sweep.pid)" 2>/dev/null; do sleep 5; done
echo "== $(date -u +%FT%TZ) fio"
.venv/bin/python -m lab --fio --time 15 --out lab-runs/fio.jsonl
.venv/bin/python -m lab --fio --time 15 --machine two-spindle --out lab-runs/fio.jsonl
.venv/bin/python -m lab --fio --time 15 --machine gp3 --out lab-runs/fio.jsonl
echo "== $(date -u +%FT%TZ) fio exit $?"
sh lab-runs/sweep2.sh
echo "== $(date -u +%FT%TZ) all done"
