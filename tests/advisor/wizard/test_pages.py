"""What every page of the wizard shares: CSP-safe markup, CSRF on each form, nothing external."""

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.advisor.wizard.helpers import complete_wizard

pytestmark = pytest.mark.django_db

INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)


class Forms(HTMLParser):
    """Collects each form's attributes, whether it holds a CSRF token, and all script tags."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self.scripts: list[dict] = []
        self.hx_outside_forms: list[dict] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.forms.append({**attributes, "csrf": False})
            self._depth += 1
        elif tag == "input" and attributes.get("name") == "csrfmiddlewaretoken" and self.forms:
            self.forms[-1]["csrf"] = True
        elif tag == "script":
            self.scripts.append(attributes)
        if "hx-post" in attributes and tag != "form" and not self._depth:
            self.hx_outside_forms.append(attributes)

    def handle_endtag(self, tag):
        if tag == "form":
            self._depth -= 1


def pages(client: Client) -> list[str]:
    permalink = complete_wizard(client)
    steps = [f"/wizard/{s}/" for s in ("server", "hardware", "storage", "workload", "current")]
    return ["/", *steps, permalink, permalink + "?whatif=ram", "/sources/", "/r/missing/"]


def parsed(client: Client, url: str) -> tuple[str, Forms]:
    html = client.get(url).content.decode()
    parser = Forms()
    parser.feed(html)
    return html, parser


def test_every_post_form_has_a_real_action_and_a_csrf_token(client):
    for url in pages(client):
        _, parser = parsed(client, url)
        for form in parser.forms:
            assert form.get("action"), (url, form)
            if form.get("method") == "post":
                assert form["csrf"], (url, form)
            if "hx-post" in form:
                assert form["hx-post"] == form["action"].split("#")[0], (url, form)
        assert not parser.hx_outside_forms, url  # a live check always sits inside its form


def test_no_page_has_inline_script_inline_style_or_inline_handlers(client):
    for url in pages(client):
        html, parser = parsed(client, url)
        assert all(script.get("src", "").startswith("/static/") for script in parser.scripts), url
        assert " style=" not in html, url
        assert "<style" not in html, url
        assert not INLINE_HANDLER.search(html), url


def test_htmx_comes_from_django_htmx_and_injects_no_style(client):
    html = client.get("/").content.decode()
    assert '<script src="/static/django_htmx/htmx-2.min.js" defer></script>' in html
    assert '"includeIndicatorStyles": false' in html
    assert """hx-headers='{"x-csrftoken": \"""" in html


def test_no_page_loads_anything_from_another_host(client):
    external = re.compile(r'(<[^>]+\ssrc="(https?:)?//)|(<link[^>]+href="(https?:)?//)')
    for url in pages(client):
        assert not external.search(client.get(url).content.decode()), url


def test_posts_without_a_csrf_token_are_refused():
    client = Client(enforce_csrf_checks=True)
    permalink = "/r/0123456789abcdef0123/"
    for url in (
        "/wizard/server/",
        "/wizard/server/check/",
        "/wizard/reset/",
        "/presets/single-hdd/",
        permalink + "edit/",
        permalink + "what-if/",
    ):
        assert client.post(url, {"flavor": "mysql"}).status_code == 403, url


def test_the_steps_are_reachable_by_keyboard_with_labels_on_every_field(client):
    for step in ("server", "hardware", "storage", "workload", "current"):
        html = client.get(f"/wizard/{step}/").content.decode()
        for field_id in re.findall(r'<(?:input|select|textarea)[^>]* id="(id_[a-z_0-9]+)"', html):
            assert f'for="{field_id}"' in html, (step, field_id)
        assert 'class="skip-link"' in html
