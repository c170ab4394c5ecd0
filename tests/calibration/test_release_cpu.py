"""MySQL 8.0 and later spend more CPU on each statement than 5.x and MariaDB (the model's
mysql8_cpu): which runs and profiles count as such, and what the estimate makes of it."""

import math

import pytest

from calibration.model import LAYOUT
from calibration.points import load_points, mysql_8_or_later
from calibration.server_config import mysql_8_or_later as profile_is_mysql_8
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from tests.calibration.test_estimator import CALIBRATION, midpoint


@pytest.mark.parametrize(
    ("server", "expected"),
    [
        ("mysql 8.0.36", True),
        ("mysql 8.4.7 (gtid_mode ON)", True),
        ("percona server 8.0.19", True),
        ("mysql 9.7.0", True),
        ("mysql 5.7.44", False),
        ("percona server 5.7.21", False),
        ("mariadb 11.8.3", False),
        ("mariadb enterprise 11.8.3", False),
        ("percona server (version not stated)", False),
        ("", False),
    ],
)
def test_a_run_is_mysql_8_only_when_it_names_such_a_release(server, expected) -> None:
    assert mysql_8_or_later(server) is expected


def test_every_published_mysql_8_run_is_flagged() -> None:
    flagged = {p.server for p in load_points() if p.mysql_8}
    assert flagged, "the data has MySQL 8 runs"
    assert all(s.lower().startswith(("mysql 8", "mysql 9", "percona server 8")) for s in flagged)


@pytest.mark.parametrize(
    ("flavor", "version", "expected"),
    [
        ("mysql", "8.0", True),
        ("percona", "8.4", True),
        ("mysql", "5.7", False),
        ("mariadb", "11.4", False),
    ],
)
def test_a_profile_is_mysql_8_by_flavor_and_version(flavor, version, expected) -> None:
    raw = raw_profile(**{"server.flavor": flavor, "server.version": version})
    assert profile_is_mysql_8(parse_profile(raw)) is expected


def cached_point_selects(flavor: str, version: str) -> dict:
    """A read-only load whose data the pool holds: CPU-bound, no binary log events."""
    return raw_profile(
        **{
            "server.flavor": flavor,
            "server.version": version,
            "workload.kind": "read_mostly",
            "workload.data_size_gb": 10,
            "workload.concurrency": 8,
        }
    )


def test_the_same_cached_load_is_estimated_slower_on_mysql_8_by_the_fitted_factor() -> None:
    pool = {"innodb_buffer_pool_size": 64 * 1024**3}
    older = midpoint(cached_point_selects("mysql", "5.7"), **pool)
    newer = midpoint(cached_point_selects("mysql", "8.0"), **pool)
    fitted = CALIBRATION.params[LAYOUT.index("mysql8_cpu")]
    assert fitted > 0.0
    assert newer < older
    # CPU-bound, the estimate scales with 1 / CPU per unit: exp(-mysql8_cpu), give or take
    # the bounds' rounding to three significant figures
    assert newer / older == pytest.approx(math.exp(-fitted), rel=0.02)


def test_mariadb_is_not_charged_mysql_8s_statement_cost() -> None:
    pool = {"innodb_buffer_pool_size": 64 * 1024**3}
    mariadb = midpoint(cached_point_selects("mariadb", "11.4"), **pool)
    mysql_8 = midpoint(cached_point_selects("mysql", "8.0"), **pool)
    assert mariadb > mysql_8
