"""The result page offers a revert next to each download when the current configuration was
given, and only then."""

import pytest

from advisor.recommendations.services import recommendation_create
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render import FORMATS, render_revert, revert_filename_for

pytestmark = pytest.mark.django_db


def _stored(current: object):
    raw = {**raw_profile(), "current": current}
    return recommendation_create(profile=parse_profile(raw))


def test_each_download_has_its_revert_twin_when_current_was_given(client):
    result = _stored({"mycnf": "[mysqld]\ninnodb_io_capacity = 300\n"})
    html = client.get(result.permalink).content.decode()
    for fmt in FORMATS:
        if fmt in ("k8s-mariadb-operator", "rds-json", "rds-terraform"):
            assert f'href="/r/{result.id}/download/{fmt}' not in html  # refused for MySQL 8.0
            continue
        link = f"/r/{result.id}/download/{fmt}/revert"
        assert f'href="{link}"' in html
        assert f'download="{revert_filename_for(result, fmt)}"' in html
        response = client.get(link)
        assert response.status_code == 200
        assert response.content.decode() == render_revert(result, fmt, base_url="http://testserver")
        assert revert_filename_for(result, fmt) in response["Content-Disposition"]


def test_without_current_there_is_no_revert_link_and_the_url_is_not_found(client):
    result = _stored(None)
    html = client.get(result.permalink).content.decode()
    assert "/revert" not in html
    assert client.get(f"/r/{result.id}/download/mycnf/revert").status_code == 404
