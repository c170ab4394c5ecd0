"""End-of-life warnings: each series past its vendor's date warns with the date and the page."""

import json
from importlib import resources

import pytest

from rules.inputs.enums import Flavor
from rules.inputs.version import parse_version
from rules.reference.lifecycle import AS_OF, LIFECYCLE, lifecycle_warning
from tests.rules.engine_helpers import result_for

ORACLE_80 = "https://docs.oracle.com/cd/E17952_01/mysql-8.0-relnotes-en/"
ORACLE_57 = "https://www.oracle.com/us/support/library/lifetime-support-technology-069183.pdf"
SHELL_9 = "https://dev.mysql.com/doc/relnotes/mysql-shell/26.7/en/news-9.html"
RELEASE_MODEL = "https://www.mariadb.com/docs/release-notes/mariadb-release-model"


def _rows() -> list[dict[str, object]]:
    text = resources.files("rules").joinpath("data/lifecycle.json").read_text(encoding="utf-8")
    return json.loads(text)["rows"]


@pytest.mark.parametrize(
    ("flavor", "version", "when", "page"),
    [
        ("mysql", "5.7.44", "reached its end of life in October 2023", ORACLE_57),
        ("percona", "5.7.44-48", "reached its end of life in October 2023", ORACLE_57),
        ("mysql", "8.0.36", "reached its end of life in April 2026", ORACLE_80),
        ("percona", "8.0.36-28", "reached its end of life in April 2026", ORACLE_80),
        ("mysql", "9.0.1", "reached its end of life on 15 October 2024", SHELL_9),
        ("mysql", "9.1.0", "reached its end of life on 21 January 2025", SHELL_9),
        ("mysql", "9.2.0", "reached its end of life on 15 April 2025", SHELL_9),
        ("mysql", "9.3.0", "reached its end of life on 22 July 2025", SHELL_9),
        ("mysql", "9.4.0", "reached its end of life on 21 October 2025", SHELL_9),
        ("mysql", "9.5.0", "reached its end of life on 20 January 2026", SHELL_9),
        ("mysql", "9.6.0", "reached its end of life on 21 April 2026", SHELL_9),
        (
            "mysql",
            "26.7.0",
            "reached its end of life on 20 October 2026",
            "https://dev.mysql.com/doc/mysql-enterprise-backup/26.7/en/what-is-new.html",
        ),
        (
            "mariadb",
            "10.5.27",
            "reached its end of life on 24 June 2025",
            "https://mariadb.org/about/#maintenance-policy",
        ),
        (
            "mariadb",
            "10.6.18",
            "reached its end of life on 6 July 2026",
            "https://mariadb.org/mariadb-10-11-is-lts/",
        ),
        (
            "mariadb",
            "11.5.2",
            "is a rolling release that is no longer maintained",
            "https://mariadb.com/docs/release-notes/community-server/old-releases/11.5",
        ),
        ("mariadb", "11.6.2", "is a rolling release that is no longer maintained", RELEASE_MODEL),
        ("mariadb", "11.7.2", "is a rolling release that is no longer maintained", RELEASE_MODEL),
        ("mariadb", "12.0.2", "is a rolling release that is no longer maintained", RELEASE_MODEL),
        ("mariadb", "12.2", "is a rolling release that is no longer maintained", RELEASE_MODEL),
    ],
)
def test_a_release_past_its_end_of_life_warns_with_the_vendors_date_and_page(
    flavor, version, when, page
) -> None:
    warning = lifecycle_warning(Flavor(flavor), parse_version(version))
    assert warning is not None
    series = ".".join(version.split(".")[:2])
    assert f" {series} {when} (" in warning
    assert f": {page}): it gets no more security or bug fixes." in warning
    assert "Plan to upgrade to " in warning


@pytest.mark.parametrize(
    ("flavor", "version"),
    [
        ("mysql", "8.4.3"),
        ("percona", "8.4.2-2"),
        ("mysql", "9.7.0"),
        ("mariadb", "10.11.9"),
        ("mariadb", "11.4.3"),
        ("mariadb", "11.8.2"),
        ("mariadb", "12.3"),
        ("mysql", "5.6.51"),  # not in the table: no claim is made about it
    ],
)
def test_a_supported_or_unlisted_release_gets_no_lifecycle_warning(flavor, version) -> None:
    assert lifecycle_warning(Flavor(flavor), parse_version(version)) is None


def test_the_upgrade_advice_names_only_newer_long_term_releases() -> None:
    warning = lifecycle_warning(Flavor.MARIADB, parse_version("11.5.2"))
    assert warning is not None
    assert "upgrade to MariaDB 11.8 or 12.3, the long-term releases still supported" in warning
    warning = lifecycle_warning(Flavor.MYSQL, parse_version("8.0.36"))
    assert warning is not None
    assert "upgrade to MySQL 8.4 or 9.7, the long-term releases still supported" in warning


def test_every_lifecycle_row_cites_a_vendor_page_and_states_an_end_or_a_status() -> None:
    rows = _rows()
    assert rows
    for row in rows:
        assert str(row["source"]).startswith("https://"), row
        assert (row.get("ends") is None) == ("maintained" in row), row
        assert row["flavors"], row
    assert len(LIFECYCLE) == sum(len(row["flavors"]) for row in rows)  # type: ignore[arg-type]


def test_the_table_is_judged_at_its_own_date_not_the_clock() -> None:
    """Every dated row's status follows from the table's as_of alone."""
    for row in LIFECYCLE.values():
        if row.ends is not None:
            assert row.maintained == (row.ends >= AS_OF)


def test_the_engine_warns_about_a_release_past_its_end_of_life() -> None:
    old = result_for(**{"server.flavor": "mysql", "server.version": "8.0.36"})
    ended = "MySQL 8.0 reached its end of life in April 2026"
    assert any(warning.startswith(ended) for warning in old.warnings)
    assert old.output_refused is None  # still supported by the advisor: my.cnf is written
    current = result_for(**{"server.flavor": "mysql", "server.version": "8.4.3"})
    assert not any("end of life" in w for w in current.warnings)
