# Targets shared by people and CI. GNU make; Python 3.11 through `python3.11`.
#   make run    serve http://127.0.0.1:8000 (SQLite, Celery eager; no other service)
#   make test   install what is missing, start PostgreSQL/Redis if down, lint, whole suite
#   make lint   ruff check, ruff format --check, mypy, import-linter
#   make golden regenerate the golden files and docs/examples (review them as a diff)
#   make screenshots  refresh docs/screenshots from a real browser run
#   make bench  engine, estimator, page-render, API-load, batch and real-gain benchmarks (each prints its figures)
#   make calibrate  refit the throughput model and write a new versioned artifact

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# A dev install's settings, read by every manage.py command (manage.py loads it).
ENV_FILE ?= .env
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/advisor
SERVICE_WAIT_SECONDS ?= 30
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help venv run system-deps services lint test golden bench calibrate screenshots

help:
	@sed -n 's/^#   //p' $(firstword $(MAKEFILE_LIST))

# The virtualenv, reinstalled only when pyproject.toml changes.
venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -e ".[dev]"
	touch $(STAMP)

run: venv $(ENV_FILE)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# A dev install's settings (see ENV_FILE above), written once; kept if present.
$(ENV_FILE):
	printf '%s\n' '# Written by make run: a development install (SQLite, Celery eager, a dev secret key).' \
	  '# manage.py reads this file; variables already exported win. See .env.example for the rest.' \
	  'DJANGO_DEBUG=1' > $@

# System packages the tests boot for real, installed from Debian's archive when missing.
SYSTEM_PACKAGES := mariadbd:mariadb-server mariadb-install-db:mariadb-server chromium:chromium \
  redis-server:redis-server mariadb:mariadb-client fio:fio setpriv:util-linux lsblk:util-linux \
  findmnt:util-linux sysbench:sysbench
system-deps:
	@missing=""; \
	for pair in $(SYSTEM_PACKAGES); do \
	  command -v "$${pair%%:*}" >/dev/null || missing="$$missing $${pair#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing missing system packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# Start PostgreSQL and Redis when they are down (commands from env/machines/python-svc.md),
# then wait, at most SERVICE_WAIT_SECONDS, until both answer.
services:
	@if ! pg_isready -q -h 127.0.0.1; then \
	  echo "PostgreSQL is down: starting it"; \
	  pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start; \
	fi
	@if [ "$$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" != PONG ]; then \
	  echo "Redis is down: starting it"; \
	  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
	    --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log; \
	fi
	@for i in $$(seq $(SERVICE_WAIT_SECONDS)); do \
	  pg_isready -q -h 127.0.0.1 && break; \
	  [ $$i -lt $(SERVICE_WAIT_SECONDS) ] || { \
	    echo "error: PostgreSQL on 127.0.0.1:5432 not ready after $(SERVICE_WAIT_SECONDS)s" >&2; \
	    exit 1; }; \
	  sleep 1; \
	done
	@for i in $$(seq $(SERVICE_WAIT_SECONDS)); do \
	  [ "$$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" = PONG ] && break; \
	  [ $$i -lt $(SERVICE_WAIT_SECONDS) ] || { \
	    echo "error: Redis on 127.0.0.1:6379 not ready after $(SERVICE_WAIT_SECONDS)s" >&2; \
	    exit 1; }; \
	  sleep 1; \
	done
	@echo "PostgreSQL and Redis are up"

# Runs every check and fails at the end if any failed, so one run shows all problems.
lint: venv
	@failed=""; \
	for check in "ruff check ." "ruff format --check ." "mypy" "lint-imports"; do \
	  echo "+ $$check"; \
	  $(BIN)/$$check || failed="$$failed; $$check"; \
	done; \
	if [ -n "$$failed" ]; then echo "lint failed: $${failed#; }" >&2; exit 1; fi

test: venv system-deps services lint
	DATABASE_URL=$(TEST_DATABASE_URL) $(BIN)/pytest

# Refresh the README's screenshots from a real browser run; look at them before committing.
screenshots: venv system-deps services
	ADVISOR_SCREENSHOTS_DIR=docs/screenshots DATABASE_URL=$(TEST_DATABASE_URL) \
	  $(BIN)/pytest tests/browser -q

golden: venv
	$(BIN)/python scripts/make_golden.py
	$(BIN)/python scripts/make_examples.py

# Each benchmark prints its own figures; api_load runs ~2 minutes, batch needs Redis,
# real_gain ~8 minutes (MariaDB with sysbench and fio).
bench: venv services
	command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
	command -v sysbench >/dev/null && command -v fio >/dev/null || \
	  { apt-get update -qq && apt-get install -y -qq sysbench fio; }
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/estimator.py
	$(BIN)/python benchmarks/wizard_render.py
	bash benchmarks/api_load.sh
	$(BIN)/python benchmarks/batch.py
	$(BIN)/python benchmarks/real_gain.py

calibrate: venv $(ENV_FILE)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py calibrate
