#!/bin/sh
# The second pass: other client counts (1 and 16) and point selects on one of the machines
# (two more were planned; the time ran out), 4 configurations: the defaults, a 16 MiB and a
# 256 MiB pool, trx_commit=2 at 32 MiB.
cd "$(dirname "$0")/.."
CNF=lab-runs/cnf
COMMON="--test oltp_read_write oltp_point_select --threads 1 16 --tables 2 --table-size 150000 \
  --rounds 1 --warmup 5 --time 15 \
  --config defaults= --config bp16=$CNF/bp16.cnf --config bp256=$CNF/bp256.cnf \
  --config trx2=$CNF/trx2.cnf"
while read -r name limits; do
  [ -z "$name" ] && continue
  echo "== $(date -u +%FT%TZ) $name: $limits"
  # shellcheck disable=SC2086
  .venv/bin/python -m lab $COMMON $limits --out "lab-runs/$name.jsonl"
  echo "== $(date -u +%FT%TZ) $name exit $?"
done <<'MACHINES'
t1 --memory 1G --cpus 2
MACHINES
