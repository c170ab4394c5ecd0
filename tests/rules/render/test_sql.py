import dataclasses

import pytest

from rules.engine import recommend
from rules.inputs.errors import OutputRefused
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render.sql import NOW_TITLE, RESTART_TITLE, render_sql, uses_set_persist
from tests.rules.render.fixtures import (
    mariadb_result,
    mysql57_result,
    mysql80_result,
    profile,
    refused_result,
)


def _statements(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("--")]


def _on(flavor: str, version: str) -> Result:
    return dataclasses.replace(mysql80_result(), profile=profile(flavor, version))


@pytest.mark.parametrize(
    ("flavor", "version", "persist"),
    [
        ("mysql", "8.0.36", True),
        ("mysql", "8.4", True),
        ("mysql", "9.1.0", True),
        ("percona", "8.0.36-28", True),
        ("mysql", "5.7.44", False),
        ("percona", "5.7", False),
        ("mariadb", "10.11", False),
        ("mariadb", "11.4.2", False),
    ],
)
def test_set_persist_is_used_only_on_mysql_and_percona_8_and_later(
    flavor: str, version: str, persist: bool
) -> None:
    assert uses_set_persist(profile(flavor, version).server) is persist
    statements = _statements(render_sql(_on(flavor, version)))
    assert statements
    verbs = {line.split(" ")[0] + " " + line.split(" ")[1] for line in statements}
    assert verbs == ({"SET PERSIST", "SET PERSIST_ONLY"} if persist else {"SET GLOBAL"})


def _parts(text: str) -> tuple[str, str]:
    """(part 1, part 2) of an SQL export: what runs now and what waits for a restart."""
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith(NOW_TITLE))
    second = next(i for i, line in enumerate(lines) if line.startswith(RESTART_TITLE))
    assert 0 < first < second
    return "".join(lines[first + 1 : second]), "".join(lines[second + 1 :])


def test_on_mysql_8_dynamic_settings_persist_now_and_static_ones_persist_only_for_the_restart() -> (
    None
):
    now, restart = _parts(render_sql(mysql80_result()))
    assert "SET PERSIST innodb_io_capacity = 1600;\n" in now
    assert _statements(restart) == [
        "SET PERSIST_ONLY innodb_read_io_threads = 8;",
        "SET PERSIST_ONLY innodb_flush_method = 'O_DIRECT';",
    ]
    assert "PERSIST_ONLY" not in now


def test_numbers_are_bare_and_words_are_quoted() -> None:
    text = render_sql(mysql80_result())
    assert "SET PERSIST innodb_buffer_pool_size = 51539607552;\n" in text
    assert "SET PERSIST innodb_max_dirty_pages_pct = 90;\n" in text
    assert "SET PERSIST innodb_max_dirty_pages_pct_lwm = 12.5;\n" in text
    assert "SET PERSIST innodb_random_read_ahead = 'OFF';\n" in text


def test_on_mysql_57_static_settings_are_listed_for_my_cnf() -> None:
    text = render_sql(mysql57_result())
    now, restart = _parts(text)
    assert "SET GLOBAL innodb_io_capacity = 1600;" in _statements(now)
    assert _statements(restart) == []
    assert restart.endswith(
        "\n-- put these in the [mysqld] section of my.cnf, then restart:\n"
        "-- innodb_read_io_threads = 8\n"
        "-- innodb_flush_method = O_DIRECT\n"
    )
    assert "SET GLOBAL applies a value now but is lost at the next restart" in text


def test_on_mariadb_it_uses_set_global_now_and_my_cnf_lines_for_the_restart() -> None:
    now, restart = _parts(render_sql(mariadb_result()))
    assert _statements(now) == [
        "SET GLOBAL innodb_io_capacity_max = 3200;",
        "SET GLOBAL innodb_io_capacity = 1600;",
    ]
    assert _statements(restart) == []
    assert restart.endswith("-- innodb_read_io_threads = 8\n")


def test_each_group_says_when_it_is_empty() -> None:
    result = mysql80_result()
    dynamic = tuple(s for s in result.settings if s.dynamic)
    now, restart = _parts(render_sql(dataclasses.replace(result, settings=dynamic)))
    assert "-- Nothing waits for a restart." in restart
    assert "Nothing here can be changed" not in now


def test_each_statement_follows_its_reason() -> None:
    lines = render_sql(mysql80_result()).splitlines()
    for index, line in enumerate(lines):
        if line.startswith("SET "):
            assert lines[index - 1].startswith("-- ")
            assert lines[index - 2] == ""
    assert (
        "-- Background flushing may use about the 1,600 random writes/s of 8 × 15k disks.\n"
        "SET PERSIST innodb_io_capacity = 1600;\n"
    ) in render_sql(mysql80_result())


def test_the_header_matches_the_my_cnf_header() -> None:
    text = render_sql(mysql80_result(), base_url="https://advisor.example")
    assert text.startswith("-- InnoDB IO Advisor: SQL for a running server\n")
    assert "-- Ruleset 2026.1, calibration 2026.1-118pts\n" in text
    assert "-- Inputs: mysql 8.0.36 · 64 GiB RAM · 16 cores · 8 × hdd" in text
    assert "-- Permalink: https://advisor.example/r/7f3c0a1b2c3d4e5f/\n" in text
    assert "-- Warning: RAM is smaller than the data: expect reads from disk.\n" in text


def test_other_scopes_are_left_out() -> None:
    assert "open_files_limit" not in render_sql(mysql80_result())


def test_nothing_online_is_said_when_every_setting_is_static() -> None:
    result = mariadb_result()
    static = tuple(s for s in result.settings if not s.dynamic)
    now, _restart = _parts(render_sql(dataclasses.replace(result, settings=static)))
    assert _statements(now) == []
    assert "-- Nothing here can be changed on a running server." in now


def test_quotes_in_a_word_are_doubled_and_newlines_cannot_escape_a_comment() -> None:
    base = mysql80_result()
    setting = dataclasses.replace(
        base.settings[3], value="it's", reason="one\nDROP TABLE t; --", dynamic=True
    )
    text = render_sql(dataclasses.replace(base, settings=(setting,)))
    assert "SET PERSIST innodb_flush_method = 'it''s';\n" in text
    assert "-- one DROP TABLE t; --\n" in text
    assert "\nDROP" not in text


def test_an_unsupported_version_is_refused_with_the_reason() -> None:
    with pytest.raises(OutputRefused, match=r"written for MySQL 5\.7"):
        render_sql(refused_result())


def test_it_is_byte_identical_for_identical_input() -> None:
    assert render_sql(mysql80_result()) == render_sql(mysql80_result())
    assert render_sql(mysql80_result()).endswith("\n")


def test_doublewrite_is_never_persisted_only_put_in_my_cnf() -> None:
    raw = {**raw_profile(), "current": {"variables": {"innodb_doublewrite": "OFF"}}}
    text = render_sql(recommend(parse_profile(raw)))
    assert "PERSIST innodb_doublewrite" not in text
    assert "PERSIST_ONLY innodb_doublewrite" not in text
    _now, restart = _parts(text)
    assert "-- cannot be persisted; put these in the [mysqld] section of my.cnf" in restart
    assert "\n-- innodb_doublewrite = ON" in text
