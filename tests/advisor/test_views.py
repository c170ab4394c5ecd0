import json
import re

import pytest

CLI_COMMAND = "python manage.py recommend profile.json --format mycnf"


def test_healthz_reports_each_dependency_when_all_answer(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "checks": {"database": "ok"}}


# A database that is down or stuck: tests/worker/test_database_down.py, against gunicorn.


def test_healthz_refuses_post(client):
    assert client.post("/healthz").status_code == 405


def test_index_shows_how_to_use_the_cli(client):
    response = client.get("/")
    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["recommendations/index.html", "base.html"]
    html = response.content.decode()
    assert CLI_COMMAND in html
    assert '<meta name="viewport"' in html
    assert "/static/css/site.css" in html


def test_index_loads_nothing_from_other_hosts(client):
    """No script, style, image or link to another host (the probe command names this site's
    own address, as text)."""
    html = client.get("/").content.decode()
    urls = re.findall(r"""(?:src|href|action)\s*=\s*["']([^"']*)""", html)
    assert urls
    assert not [url for url in urls if "//" in url and "//testserver/" not in url]


def test_index_example_profile_is_the_contract_example(client):
    html = client.get("/").content.decode()
    example = html.split("<pre><code>", 1)[1].split("</code></pre>", 1)[0]
    profile = json.loads(example.replace("&quot;", '"'))
    assert profile["server"] == {"flavor": "mysql", "version": "8.0.36"}
    assert profile["hardware"]["storage"]["raid_level"] == "raid10"


@pytest.mark.parametrize("path", ["/no-such-page/", "/r/unknown/"])
def test_a_missing_page_gets_our_404_template(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert "404.html" in [t.name for t in response.templates]
    html = response.content.decode()
    assert "Page not found" in html
    assert path in html


@pytest.mark.django_db
def test_an_oversized_paste_gets_our_400_page_not_a_500(client) -> None:
    response = client.post("/wizard/current/", {"current_text": "x" * (5 * 1024 * 1024)})
    assert response.status_code == 400
    assert b"That request was not accepted" in response.content
