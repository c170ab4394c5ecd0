"""End to end: the probe reads this machine and a real MariaDB, posts the profile to a running
app (pytest-django's live server), the permalink opens, and the my.cnf behind it boots a real
MariaDB that reports every value written."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

import pytest

from lab.mariadb_server import boot_and_read, same_value
from tests.probe.run import SYSTEM_PYTHON, run_probe

pytestmark = [pytest.mark.mariadb, pytest.mark.django_db(transaction=True)]


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as response:
        assert response.status == 200
        return response.read().decode("utf-8")


def _settings(mycnf: str) -> dict[str, str]:
    """name -> value of each `name = value` line of the [mysqld] group."""
    values: dict[str, str] = {}
    group = None
    for line in mycnf.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            group = stripped.strip("[]")
        elif group == "mysqld" and re.match(r"^[a-z_]+\s*=", stripped):
            name, value = (part.strip() for part in stripped.split("=", 1))
            values[name] = value
    return values


def test_probe_post_permalink_mycnf_boots_mariadb(live_server, client_defaults: Path) -> None:
    posted = run_probe(
        "--defaults-file",
        str(client_defaults),
        "--post",
        live_server.url,
        "--quiet",
        python=SYSTEM_PYTHON,
    )
    posted.no_traceback()
    assert posted.code == 0, posted.stderr
    permalink = posted.stdout.strip()
    assert re.fullmatch(re.escape(live_server.url) + r"/r/[0-9a-z]{16,32}/", permalink)
    page = _get(permalink)
    assert "innodb_io_capacity" in page
    result_id = permalink.rstrip("/").rsplit("/", 1)[-1]
    mycnf = _get(f"{live_server.url}/api/v1/recommendations/{result_id}/mycnf")
    written = _settings(mycnf)
    assert "innodb_io_capacity" in written
    booted = boot_and_read(mycnf, list(written))
    assert booted.started, booted.error_log
    differing = {
        name: (value, booted.values[name])
        for name, value in written.items()
        if not same_value(value, booted.values[name])
    }
    assert differing == {}

    direct = run_probe(
        "--defaults-file",
        str(client_defaults),
        "--post",
        live_server.url,
        "--format",
        "mycnf",
        "--quiet",
        python=SYSTEM_PYTHON,
    )
    assert direct.code == 0, direct.stderr
    assert _settings(direct.stdout) == written
    assert "advisor-probe: permalink " + live_server.url + "/r/" in direct.stderr


def test_an_unreachable_advisor_is_a_clear_error(client_defaults: Path) -> None:
    run = run_probe("--defaults-file", str(client_defaults), "--post", "http://127.0.0.1:9")
    run.no_traceback()
    assert run.code == 1
    assert "cannot reach http://127.0.0.1:9/api/v1/recommendations" in run.stderr


def test_a_url_that_is_not_http_is_refused(client_defaults: Path) -> None:
    run = run_probe("--defaults-file", str(client_defaults), "--post", "file:///etc/passwd")
    run.no_traceback()
    assert run.code == 2  # a usage error, before the host is read
    assert "is not an http(s) URL" in run.stderr
