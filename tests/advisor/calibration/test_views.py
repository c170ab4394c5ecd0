import math
import re

import pytest
from django.urls import reverse

from advisor.calibration_admin.runs import calibration_run_create
from advisor.models import CalibrationRun, Measurement
from calibration import artifact
from calibration.calibrate import run_calibration
from calibration.points import load_points
from rules.reference import bibliography

pytestmark = pytest.mark.django_db
PAGE = reverse("calibration")


@pytest.fixture(scope="module")
def fitted():
    """One fit for the module: the page reads only the artifact, so the tests share it."""
    return run_calibration(load_points(), version="20261121.101500-105pts")


@pytest.fixture
def run(fitted, artifact_dir):
    artifact.save(fitted, artifact_dir)
    return fitted


def test_the_page_is_at_calibration():
    assert PAGE == "/calibration/"


def test_the_page_shows_the_version_and_the_coverage_figures(client, run):
    response = client.get(PAGE)
    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == [
        "calibration_admin/page.html",
        "base.html",
    ]
    html = response.content.decode()
    report = run.report
    assert run.version in html
    assert 'fitted <time datetime="2026-11-21T10:15:00+00:00">21 November 2026, 10:15 UTC' in html
    assert f"{report['coverage']:.3f}" in html
    assert f"{report['median_width_ratio']:.2f}" in html
    assert f"{report['points']} / {report['sources']}" in html
    assert "held-out 80% intervals" in html  # the sentence saying what the figures mean


def test_the_page_has_the_plot_as_inline_svg_with_a_legend(client, run):
    html = client.get(PAGE).content.decode()
    assert html.count("<svg") == 1
    assert "log scale" in html
    for row in run.report["per_source"]:
        assert f">{row['source']}</text>" in html


def test_the_per_source_table_cites_the_bibliography(client, run):
    html = client.get(PAGE).content.decode()
    for row in run.report["per_source"]:
        entry = bibliography.source(row["source"])
        assert f'id="source-{row["source"]}"' in html
        assert entry.title in html.replace("&#x27;", "'").replace("&quot;", '"')


def test_the_data_table_lists_every_point_and_every_excluded_row_with_its_reason(client, run):
    html = client.get(PAGE).content.decode()
    rows = re.findall(r"<tr(?: class=\"excluded\")?>\s*<td>([^<]+)</td>", html)
    expected = [r["id"] for r in run.report["table"]] + [r["id"] for r in run.report["excluded"]]
    assert rows == expected
    for row in run.report["excluded"]:
        assert f"Excluded: {row['reason']}" in html


def test_every_cited_source_has_an_anchor(client, run):
    html = client.get(PAGE).content.decode()
    for anchor in set(re.findall(r'href="#(source-[^"]+)"', html)):
        assert f'id="{anchor}"' in html


def test_an_approved_submission_is_shown_as_a_user_submission(client, make_measurement):
    measurement = make_measurement(status=Measurement.Status.APPROVED)
    calibration_run_create(trigger="command")
    html = client.get(PAGE).content.decode()
    assert f"User submission #{measurement.pk}" in html
    assert ">user submissions</text>" in html


def test_the_page_reads_the_newest_artifact_not_the_database(client, run):
    assert not CalibrationRun.objects.exists()
    assert run.version in client.get(PAGE).content.decode()


def test_without_an_artifact_the_page_says_so(client):
    response = client.get(PAGE)
    assert response.status_code == 200
    html = response.content.decode()
    assert "No calibration has been fitted yet" in html
    assert "<svg" not in html


def test_an_unreadable_artifact_is_explained_not_a_server_error(client, artifact_dir):
    artifact_dir.mkdir()
    (artifact_dir / "calibration-20990101.000000-1pts.json").write_text('{"layout": []}')
    response = client.get(PAGE)
    assert response.status_code == 200
    assert "cannot be read" in response.content.decode()


def test_the_page_has_no_inline_script_or_style_and_links_its_stylesheet(client, run):
    response = client.get(PAGE)
    html = response.content.decode()
    assert "<script>" not in html
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert " style=" not in html
    assert not re.search(r"\son[a-z]+=", html)
    assert "/static/css/calibration.css" in html
    assert "http://" not in html.split("<svg", 1)[1].split("</svg>")[0].replace(
        'xmlns="http://www.w3.org/2000/svg"', ""
    )


def test_the_page_refuses_post(client):
    assert client.post(PAGE).status_code == 405


def test_the_page_says_how_an_estimates_interval_is_chosen(client, run):
    """By the capacity that binds it, each with its width, at the level the fit chose."""
    html = client.get(PAGE).content.decode().replace("&#x27;", "'")
    level = run.report["conformal_level"]
    assert f"Its conformal level is {level:.0%}" in html
    assert f"any other capacity, all results, ×{math.exp(run.bounds['pooled'][1]):.2f}" in html
    for name, (low, high) in run.bounds.items():
        assert low == -high  # centred
        if name != "pooled":
            assert f"{name.replace('|', ' in ')} ×{math.exp(high):.2f}" in html


def test_the_page_says_how_much_wider_an_estimate_outside_the_data_is(client, run):
    html = client.get(PAGE).content.decode().replace("&#x27;", "'")
    assert run.out_of_domain_widening > 1.0
    assert f"it is {run.out_of_domain_widening:.2f} times wider" in html
    assert run.gain_spread is not None
    assert f"a gain's {run.gain_spread.out_of_domain_widening:.2f} times" in html


def test_the_page_says_where_the_data_reaches_per_kind(client, run):
    """The ranges an estimate is checked against, from the artifact, in the words an estimate
    outside them uses (calibration.outside)."""
    import html

    from calibration.outside import figure

    page = html.unescape(client.get(PAGE).content.decode())
    assert "Where the data reaches" in page
    cores = run.domain["read_write"]["cores"]
    clients = run.domain["oltp"]["concurrency"]
    assert f"{figure('cores', cores[0])} to {figure('cores', cores[1])}" in page
    assert f"{figure('concurrency', clients[0])} to {figure('concurrency', clients[1])}" in page
    low, high = run.cpu_cost_loads["read_write"]
    assert f"{low:.2g} to {high:.2g}" in page
    assert "not priced: the fit's own" in page  # tpcc takes no point-select price


def test_the_pairs_are_listed_by_source_the_worst_missed_first(client, run):
    html = client.get(PAGE).content.decode()
    by_source = run.report["pairs"]["by_source"]
    worst = max(by_source, key=lambda key: by_source[key]["median_abs_log_error"])
    best = min(by_source, key=lambda key: by_source[key]["median_abs_log_error"])
    table = html[html.index("Median ratio error") :]
    assert table.index(f"<code>{worst}</code>") < table.index(f"<code>{best}</code>")
    row = table[table.index(f"<code>{worst}</code>") :]
    error = math.exp(by_source[worst]["median_abs_log_error"])
    assert f"×{error:.2f}" in row[: row.index("</tr>")]
