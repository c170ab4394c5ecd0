#!/usr/bin/env bash
# One address floods a result page (wrk, 32 connections) while a victim times GET /api/v1/rules
# (benchmarks/page_flood.py says what it measures), against gunicorn with production settings
# (DEBUG off, HTTPS behind a proxy, the production PAGE_RATE, limits on a shared Redis cache) on
# PostgreSQL, loopback only. Each argument is a source tree to serve, in turn, in one run; so a
# change can be measured beside the code before it:
#
#   benchmarks/page_flood.sh                        # this tree
#   git archive main | tar -x -C /tmp/before && benchmarks/page_flood.sh /tmp/before .
#
# Needs wrk (apt-get install -y wrk), PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379.
# WORKER_CLASS=gthread THREADS=4 serves with threads instead of sync workers.
set -euo pipefail
cd "$(dirname "$0")/.."

WEB_WORKERS=${WEB_WORKERS:-2}  # one per core, as the colleague's measurement
WORKER_CLASS=${WORKER_CLASS:-sync}
THREADS=${THREADS:-1}
BENCH_DATABASE=${BENCH_DATABASE:-advisor_bench}
VENV=$(cd "${VENV:-.venv}" && pwd)
PY="$VENV/bin/python"
[ $# -gt 0 ] || set -- .

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
work=$(mktemp -d)
server_pid=""
stop() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap 'stop; rm -rf "$work"' EXIT

export DJANGO_DEBUG=0
DJANGO_SECRET_KEY=$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')
export DJANGO_SECRET_KEY
export DJANGO_ALLOWED_HOSTS=127.0.0.1
export DJANGO_BEHIND_HTTPS_PROXY=1
export DJANGO_STATIC_MANIFEST=0
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/${BENCH_DATABASE}"
export DJANGO_CACHE_URL=${DJANGO_CACHE_URL:-redis://127.0.0.1:6379/12}
export CELERY_BROKER_URL=$DJANGO_CACHE_URL
export DJANGO_API_RATE_ANON=1000000000/minute   # the victim is never throttled
export DJANGO_LOG_LEVEL=WARNING
unset DJANGO_PAGE_RATE                          # the production default

psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='${BENCH_DATABASE}'" \
  | grep -q 1 || psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE ${BENCH_DATABASE}"

printf '%-28s %6s %9s %9s\n' "victim GET /api/v1/rules" "n" "p50 ms" "p90 ms"
for tree in "$@"; do
  tree=$(cd "$tree" && pwd)
  (cd "$tree" && "$PY" manage.py migrate --noinput -v0)
  port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$VENV/bin/gunicorn" advisor.wsgi --chdir "$tree" --bind "127.0.0.1:${port}" \
    --workers "$WEB_WORKERS" --worker-class "$WORKER_CLASS" --threads "$THREADS" \
    --log-level warning >"$work/gunicorn.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 50); do
    curl -fsS "http://127.0.0.1:${port}/healthz" >/dev/null 2>&1 && break
    sleep 0.2
  done
  curl -fsS "http://127.0.0.1:${port}/healthz" >/dev/null || { cat "$work/gunicorn.log"; exit 1; }
  sleep $((61 - $(date +%s) % 60))  # a fresh PAGE_RATE window: an earlier flood's is spent
  $PY benchmarks/page_flood.py "http://127.0.0.1:${port}" "$(basename "$tree")"
  stop
done
