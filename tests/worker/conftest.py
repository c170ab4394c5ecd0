"""Real processes for the reliability tests: Celery workers, a gunicorn web process and a Redis
of our own, all on loopback, all sharing pytest-django's test database (the tests use
`transactional_db`, so what they write is committed and the other processes see it)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SHARED_REDIS_DB = 11  # this suite's own database on the machine's Redis (127.0.0.1:6379)
START_TIMEOUT_S = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(
    predicate: Callable[[], Any],
    timeout: float,
    what: str,
    interval: float = 0.05,
    details: Callable[[], str] = str,
) -> Any:
    """Poll until `predicate` is true; on timeout fail with `what` and `details()` (a log)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:g}s waiting for {what}\n{details()}")


def database_url() -> str:
    """The URL of the test database pytest-django created (test_<name>)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def app_env(broker_url: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    return {
        **base,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": broker_url,
        "DJANGO_SECRET_KEY": "worker-tests-" + "x" * 50,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_STATIC_MANIFEST": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }


@dataclass
class Process:
    """A subprocess in its own process group, logging to a file."""

    name: str
    popen: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """SIGKILL the whole group (a worker's main process and its pool)."""
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(10)

    def output(self) -> str:
        """The log's first error (what went wrong first is what explains a failure) and its end."""
        text = self.log.read_text(errors="replace")
        marks = (text.find(mark) for mark in ("Traceback", " ERROR/", " CRITICAL/"))
        first = min((i for i in marks if i >= 0), default=-1)
        if first < 0 or first >= len(text) - 4000:
            return text[-4000:]
        return f"{text[first : first + 3000]}\n[...]\n{text[-3000:]}"


@dataclass
class Processes:
    tmp: Path
    started: list[Process] = field(default_factory=list)

    def start(self, name: str, args: list[str], env: dict[str, str]) -> Process:
        log = self.tmp / f"{name}.log"
        with log.open("wb") as sink:  # the child keeps its own descriptor
            popen = subprocess.Popen(
                args,
                cwd=PROJECT,
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        process = Process(name, popen, log)
        self.started.append(process)
        return process

    def worker(
        self,
        broker_url: str,
        name: str,
        *,
        concurrency: int = 2,
        ready: bool = True,
        env: dict[str, str] | None = None,
    ) -> Process:
        args = [
            str(BIN / "celery"), "-A", "advisor", "worker", "--pool", "prefork",
            "--concurrency", str(concurrency), "--hostname", f"{name}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO",
        ]  # fmt: skip
        process = self.start(name, args, {**app_env(broker_url), **(env or {})})
        if ready:
            wait_for(lambda: " ready." in process.output() or process.popen.poll() is not None,
                     START_TIMEOUT_S, f"worker {name} to start")  # fmt: skip
            assert process.popen.poll() is None, process.output()
        return process

    def web(self, broker_url: str, *, env: dict[str, str] | None = None) -> str:
        port = free_port()
        args = [str(BIN / "gunicorn"), "advisor.wsgi", "--bind", f"127.0.0.1:{port}",
                "--workers", "1", "--timeout", "60"]  # fmt: skip
        process = self.start("web", args, {**app_env(broker_url), **(env or {})})
        url = f"http://127.0.0.1:{port}"

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=1) as response:
                    return response.status == 200
            except OSError:
                return process.popen.poll() is not None

        wait_for(answers, START_TIMEOUT_S, "gunicorn to answer", interval=0.2)
        assert process.popen.poll() is None, process.output()
        return url

    def stop_all(self) -> None:
        for process in self.started:
            process.kill()


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    running = Processes(tmp_path)
    yield running
    running.stop_all()  # before pytest-django flushes or drops the test database


@dataclass
class OwnRedis:
    """A throwaway redis-server on a free loopback port, keeping nothing on disk."""

    port: int
    tmp: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.tmp)]  # fmt: skip
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, start_new_session=True)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)

        def pong() -> bool:
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                return False

        wait_for(pong, 10, "redis-server to answer")
        client.close()

    def kill(self) -> None:
        """SIGKILL: the queue is lost, as with a crashed Redis that keeps nothing on disk."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(free_port(), tmp_path)
    server.start()
    yield server
    server.kill()


@pytest.fixture
def shared_redis_url() -> Iterator[str]:
    client = redis.Redis(port=6379, db=SHARED_REDIS_DB)
    client.flushdb()
    yield f"redis://127.0.0.1:6379/{SHARED_REDIS_DB}"
    client.flushdb()
    client.close()
