#!/usr/bin/env bash
# Load on the web API beside /healthz, in interleaved slices of one run (benchmarks/api_load.py
# says what it measures). This script starts gunicorn with the production settings (DEBUG off,
# HTTPS behind a proxy, throttling on a shared Redis cache) on PostgreSQL.
#
#   benchmarks/api_load.sh                   # 4 rounds x 10 s per endpoint, 16 clients
#   ROUNDS=2 SLICE=5 benchmarks/api_load.sh  # a quick look
# Needs wrk (apt-get install -y wrk), PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379.
set -euo pipefail
cd "$(dirname "$0")/.."

WEB_WORKERS=${WEB_WORKERS:-2}  # one per core; wrk needs the rest
BENCH_DATABASE=${BENCH_DATABASE:-advisor_bench}
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
psql -h 127.0.0.1 -U postgres -d "$BENCH_DATABASE" -qc "TRUNCATE advisor_recommendation CASCADE" || true

port=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
.venv/bin/gunicorn advisor.wsgi --bind "127.0.0.1:${port}" --workers "$WEB_WORKERS" \
  --log-level warning >"$work/gunicorn.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  curl -fsS "http://127.0.0.1:${port}/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
curl -fsS "http://127.0.0.1:${port}/healthz" >/dev/null || { cat "$work/gunicorn.log"; exit 1; }

echo "gunicorn: ${WEB_WORKERS} sync workers (pid ${server_pid})"
$PY benchmarks/api_load.py "http://127.0.0.1:${port}" "$server_pid"
