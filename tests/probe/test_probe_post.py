"""What `--post` sends, and where: only the SHOW GLOBAL VARIABLES rows the advisor reads (never
the hostname, paths or wsrep_provider_options), over https, or plain http to this host only."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from rules.current.kept import KEPT_UNCATALOGUED
from rules.reference.catalog import known_names
from tests.probe.run import load_probe, run_probe

NO_TOOLS = "/nonexistent"  # no client, no fio: the probe stops before posting anything
PROBE_MODULE = load_probe()
SAVED_VARIABLES = (
    "hostname\tdb-prod-7.internal.example\n"
    "datadir\t/srv/secret-project/mysql/\n"
    "wsrep_provider_options\tbase_host = 10.1.2.3; socket.ssl_key = /etc/mysql/key.pem\n"
    "version\t10.11.6-MariaDB\n"
    "innodb_io_capacity\t200\n"
    "| innodb_flush_method | O_DIRECT |\n"
)


def test_the_probes_list_is_what_the_advisor_reads() -> None:
    assert known_names() | KEPT_UNCATALOGUED == PROBE_MODULE.ADVISOR_READS


def test_only_the_rows_the_advisor_reads_leave_the_host(tmp_path: Path) -> None:
    saved = tmp_path / "variables.txt"
    saved.write_text(SAVED_VARIABLES, encoding="utf-8")

    run = run_probe("--variables-file", str(saved), path=NO_TOOLS)

    run.no_traceback()
    rows = run.profile["current"]["show_variables"]
    assert rows == "innodb_io_capacity\t200\n| innodb_flush_method | O_DIRECT |\n"
    assert run.profile["server"] == {"flavor": "mariadb", "version": "10.11.6"}


class _Recorder(BaseHTTPRequestHandler):
    """An advisor stand-in on 127.0.0.1 that keeps the bodies posted to it."""

    bodies: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        self.bodies.append(json.loads(self.rfile.read(length)))
        answer = json.dumps({"id": "r1", "permalink": "/r/r1"}).encode()
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: object) -> None:  # quiet
        pass


@pytest.fixture
def recorder() -> Iterator[tuple[str, list[dict]]]:
    server = HTTPServer(("127.0.0.1", 0), _Recorder)
    _Recorder.bodies = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", _Recorder.bodies
    server.shutdown()
    server.server_close()


@pytest.mark.mariadb
def test_the_posted_profile_carries_only_the_rows_the_advisor_reads(
    client_defaults: Path, recorder: tuple[str, list[dict]]
) -> None:
    url, bodies = recorder

    run = run_probe("--defaults-file", str(client_defaults), "--post", url, "--quiet")

    run.no_traceback()
    assert run.code == 0, run.stderr
    assert run.stdout.strip() == f"{url}/r/r1"
    (posted,) = bodies
    text = json.dumps(posted)
    for private in ("hostname", "datadir", "wsrep_provider_options", "socket"):
        assert f"{private}\\t" not in text, private
    rows = posted["current"]["show_variables"].splitlines()
    names = {row.split("\t")[0] for row in rows}
    assert "innodb_buffer_pool_size" in names
    assert names <= PROBE_MODULE.ADVISOR_READS


@pytest.mark.parametrize(
    "url", ["http://example.com", "http://10.0.0.5:8000/", "http://127.0.0.1.example.com"]
)
def test_plain_http_to_another_host_is_refused_before_anything_is_read(url: str) -> None:
    run = run_probe("--post", url, path=NO_TOOLS)

    run.no_traceback()
    assert run.code == 2
    assert "plain http sends the profile in clear; use https" in run.stderr
    assert run.stdout == ""


@pytest.mark.parametrize(
    "url",
    [
        "https://advisor.example.com",
        "http://127.0.0.1:9/",
        "http://127.8.9.10:9/",
        "http://localhost:9",
        "http://[::1]:9",
    ],
)
def test_https_and_plain_http_to_this_host_are_accepted(url: str) -> None:
    run = run_probe("--post", url, path=NO_TOOLS)

    run.no_traceback()
    assert run.code == 3  # accepted, then not posted: no server was read here
    assert "not posted: missing server.flavor" in run.stderr
