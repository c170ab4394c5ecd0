"""A pasted credential reaches nobody: not the result, its permalink, its exports, nor the next
client who posts the same machine (the issue's reproduction: a shell prompt above a paste)."""

from __future__ import annotations

import pytest
from django.test import Client

from advisor.models import Recommendation
from rules.inputs.examples import raw_profile

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommendations"
PASSWORD = "S3cretPw"
PROMPT = f"root@db1:~# mysql -uroot -p{PASSWORD} -e 'SHOW GLOBAL VARIABLES'"
ROWS = "innodb_io_capacity\t200\ninnodb_flush_log_at_trx_commit\t2\n"


def _everything_served(client: Client, result_id: str) -> str:
    pages = [f"/r/{result_id}/", f"{URL}/{result_id}"]
    pages += [f"{URL}/{result_id}/{fmt}" for fmt in ("mycnf", "sql", "udev", "sysctl")]
    return "".join(client.get(page).content.decode() for page in pages)


def test_a_password_on_a_shell_line_above_a_paste_is_never_stored_nor_served(post_json, client):
    created = post_json(URL, raw_profile(current={"show_variables": f"{PROMPT}\n{ROWS}"}))
    assert created.status_code == 201, created.content
    stored = Recommendation.objects.get(id=created.json()["id"])
    assert PASSWORD not in created.content.decode()
    assert PASSWORD not in str(stored.profile) + str(stored.result)
    assert PASSWORD not in _everything_served(client, stored.id)


def test_the_next_client_posting_the_same_machine_gets_its_own_result(post_json, client):
    first = post_json(URL, raw_profile(current={"show_variables": f"{PROMPT}\n{ROWS}"})).json()
    second = post_json(URL, raw_profile(current={"show_variables": ROWS})).json()
    assert first["inputs"] == second["inputs"]
    assert first["id"] != second["id"]
    assert "line 1" in str(first["warnings"])
    assert "line 1" not in str(second["warnings"])
    assert PASSWORD not in _everything_served(client, second["id"])
