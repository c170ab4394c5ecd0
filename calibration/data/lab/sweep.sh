#!/bin/sh
# The calibration sweep of issue #43 item 3: one emulated machine after another on this host.
# Each machine: oltp_read_write and oltp_update_index, 4 threads, 2 tables x 150,000 rows,
# 11 configurations (the defaults, then one IO setting changed at a time from a 32 MiB pool),
# 1 round, 5 s warm-up + 15 s measured.
cd "$(dirname "$0")/.."
CNF=lab-runs/cnf
COMMON="--test oltp_read_write oltp_update_index --threads 4 --tables 2 --table-size 150000 \
  --rounds 1 --warmup 5 --time 15 \
  --config defaults= --config bp16=$CNF/bp16.cnf --config bp32=$CNF/bp32.cnf \
  --config bp256=$CNF/bp256.cnf --config fsync=$CNF/fsync.cnf --config trx2=$CNF/trx2.cnf \
  --config redo8=$CNF/redo8.cnf --config redo256=$CNF/redo256.cnf \
  --config ioc2000=$CNF/ioc2000.cnf --config dirty10=$CNF/dirty10.cnf \
  --config nodblw=$CNF/nodblw.cnf"
while read -r name limits; do
  [ -z "$name" ] && continue
  echo "== $(date -u +%FT%TZ) $name: $limits"
  # shellcheck disable=SC2086
  .venv/bin/python -m lab $COMMON $limits --out "lab-runs/$name.jsonl"
  echo "== $(date -u +%FT%TZ) $name exit $?"
done <<'MACHINES'
m1 --memory 1G --cpus 2
m2 --memory 512M --cpus 1 --machine two-spindle
m3 --memory 1G --cpus 1 --machine gp3
m4 --memory 2G --cpus 2 --machine two-spindle
m5 --memory 2G --cpus 2 --machine gp3
m6 --memory 512M --cpus 1
m7 --memory 1G --cpus 2 --machine two-spindle
m8 --memory 2G --cpus 1 --machine gp3
MACHINES
