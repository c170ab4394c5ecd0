#!/usr/bin/env bash
# Load on the web API, side by side with a trivial endpoint, in one run:
#   POST /api/v1/recommendations?store=false   (validation, every rule, the estimate, JSON)
#   GET  /healthz                              (one SELECT 1: the cost of the stack alone)
# gunicorn serves advisor.wsgi with the production settings (DEBUG off, HTTPS behind a proxy,
# throttling on a shared Redis cache) on PostgreSQL; wrk drives CONNECTIONS clients for
# DURATION seconds per endpoint. Prints requests/s, p50/p99 latency, errors and the ratio; it
# measures, it asserts nothing, except that there were no errors (exit 1 otherwise).
#
#   benchmarks/api_load.sh                      # 60 s per endpoint, 16 clients
#   DURATION=10 benchmarks/api_load.sh          # a quick look
# Needs wrk (apt-get install -y wrk), PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-60}
CONNECTIONS=${CONNECTIONS:-16}
WRK_THREADS=${WRK_THREADS:-2}
WEB_WORKERS=${WEB_WORKERS:-2}  # one per core; wrk needs the rest
BENCH_DATABASE=${BENCH_DATABASE:-advisor_bench}
PROFILES=${PROFILES:-200}  # distinct profiles the load cycles through
PY=.venv/bin/python

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

export DJANGO_DEBUG=0
DJANGO_SECRET_KEY=$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')
export DJANGO_SECRET_KEY
export DJANGO_ALLOWED_HOSTS=127.0.0.1
export DJANGO_BEHIND_HTTPS_PROXY=1          # wrk plays the TLS proxy: X-Forwarded-Proto: https
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/${BENCH_DATABASE}"
export DJANGO_CACHE_URL=redis://127.0.0.1:6379/12
export CELERY_BROKER_URL=redis://127.0.0.1:6379/12
export DJANGO_API_RATE_ANON=1000000000/minute   # throttling runs, but never refuses here
export DJANGO_LOG_LEVEL=WARNING

psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='${BENCH_DATABASE}'" \
  | grep -q 1 || psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE ${BENCH_DATABASE}"
$PY manage.py migrate --noinput -v0
$PY manage.py collectstatic --noinput -v0

port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
.venv/bin/gunicorn advisor.wsgi --bind "127.0.0.1:${port}" --workers "$WEB_WORKERS" \
  --log-level warning >"$work/gunicorn.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  curl -fsS "http://127.0.0.1:${port}/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "http://127.0.0.1:${port}/healthz" >/dev/null || { cat "$work/gunicorn.log"; exit 1; }

# The wrk scripts: a JSON line of figures at the end; POST cycles through distinct profiles.
$PY - "$PROFILES" >"$work/post.lua" <<'PY'
import itertools, json, sys
sys.path.insert(0, ".")
from rules.validation import parse_profile
from tests.rules.profiles import raw_profile

servers = [("mysql", "8.0.36"), ("mysql", "8.4"), ("percona", "8.0.36"), ("mariadb", "10.11")]
storage = [
    {"media": "hdd", "rpm": 15000, "device_count": 8, "raid_level": "raid10"},
    {"media": "hdd", "rpm": 7200, "device_count": 6, "raid_level": "raid5"},
    {"media": "sata_ssd", "device_count": 2, "raid_level": "raid1"},
    {"media": "nvme", "device_count": 4, "raid_level": "raid10"},
]
kinds = ["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"]
machines = list(itertools.product(servers, storage, kinds))
bodies = []
for i in range(int(sys.argv[1])):  # distinct machines: nothing can be answered from a cache
    (flavor, version), disks, kind = machines[i % len(machines)]
    raw = raw_profile(**{"server.flavor": flavor, "server.version": version,
                         "hardware.storage": {**disks, "controller_cache": "write_back_bbu"},
                         "workload.kind": kind, "hardware.ram_gb": 8 + i,
                         "workload.data_size_gb": 20 + 3 * i})
    parse_profile(raw)  # every body is valid: any error in the run is the server's
    bodies.append(json.dumps(json.dumps(raw)))  # a Lua string literal of the JSON
print("local bodies = {" + ",\n".join(bodies) + "}")
print("""local n = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  n = n % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[n])
end""")
PY
cat >"$work/report.lua" <<'LUA'
wrk.headers["X-Forwarded-Proto"] = "https"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %d, "seconds": %.3f, "errors": %d, "p50_ms": %.2f, "p99_ms": %.2f}\n',
    summary.requests, summary.duration / 1e6, e.connect + e.read + e.write + e.status + e.timeout,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
LUA
cat "$work/report.lua" >>"$work/post.lua"

run() {  # name, url, script
  wrk -t "$WRK_THREADS" -c "$CONNECTIONS" -d "${DURATION}s" --timeout 10s -s "$3" "$2" \
    | sed -n 's/^RESULT //p' >"$work/$1.json"
}
echo "gunicorn: ${WEB_WORKERS} sync workers; wrk: ${CONNECTIONS} connections, ${DURATION} s each"
run healthz "http://127.0.0.1:${port}/healthz" "$work/report.lua"
run recommend "http://127.0.0.1:${port}/api/v1/recommendations?store=false" "$work/post.lua"

$PY - "$work/healthz.json" "$work/recommend.json" <<'PY'
import json, sys
health, rec = (json.load(open(path)) for path in sys.argv[1:3])
for name, r in (("GET  /healthz", health), ("POST /api/v1/recommendations?store=false", rec)):
    rate = r["requests"] / r["seconds"]
    print(f"{name:44} {rate:8.0f} req/s  p50 {r['p50_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms"
          f"  errors {r['errors']}")
ratio = (rec["requests"] / rec["seconds"]) / (health["requests"] / health["seconds"])
print(f"ratio recommendations/healthz: {ratio:.2f} (target >= 0.50)")
sys.exit(1 if health["errors"] or rec["errors"] else 0)
PY
