"""A recommendation equal to the version's own default is shown as such and left out of the
exports, unless the profile asks for defaults too or the server runs something else today."""

import pytest

from rules.engine import recommend
from rules.inputs.errors import ProfileError
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.render.mycnf import render_mycnf
from rules.render.sql import render_sql

# MySQL 8.0.36 ships innodb_flush_log_at_trx_commit=1 and sync_binlog=1; with durability full
# the advisor recommends both.
MYSQL_80 = raw_profile(**{"workload.durability": "full"})


def _with_options(raw: dict, **options: object) -> dict:
    return {**raw, "options": options}


def test_a_default_is_marked_and_left_out_of_the_my_cnf() -> None:
    result = recommend(parse_profile(MYSQL_80))
    trx = result.setting("innodb_flush_log_at_trx_commit")
    assert trx is not None
    assert (trx.value, trx.is_default, trx.written) == (1, True, False)
    text = render_mycnf(result)
    assert "\ninnodb_flush_log_at_trx_commit = " not in text
    assert "# Left out, already this server's defaults: " in text
    assert "innodb_flush_log_at_trx_commit = 1" in text.split("[mysqld]")[0]


def test_a_value_that_differs_from_the_default_is_written_and_not_marked() -> None:
    result = recommend(parse_profile(MYSQL_80))
    pool = result.setting("innodb_buffer_pool_size")
    assert pool is not None
    assert (pool.is_default, pool.written) == (False, True)
    assert "\ninnodb_buffer_pool_size = " in render_mycnf(result)


def test_include_defaults_writes_them_too() -> None:
    result = recommend(parse_profile(_with_options(MYSQL_80, include_defaults=True)))
    assert result.left_out() == ()
    text = render_mycnf(result)
    assert "\ninnodb_flush_log_at_trx_commit = 1\n" in text
    assert "Left out" not in text
    assert "SET PERSIST innodb_flush_log_at_trx_commit = 1;" in render_sql(result)


def test_a_default_is_written_when_the_server_runs_something_else_today() -> None:
    raw = {**MYSQL_80, "current": {"variables": {"innodb_flush_log_at_trx_commit": "2"}}}
    trx = recommend(parse_profile(raw)).setting("innodb_flush_log_at_trx_commit")
    assert trx is not None
    assert (trx.is_default, trx.written) == (True, True)


def test_the_sql_leaves_defaults_out_as_the_my_cnf_does() -> None:
    text = render_sql(recommend(parse_profile(MYSQL_80)))
    assert "innodb_flush_log_at_trx_commit = 1;" not in text
    assert "-- Left out, already this server's defaults: " in text


def test_include_defaults_false_echoes_nothing_so_the_permalink_stays() -> None:
    plain = recommend(parse_profile(MYSQL_80))
    explicit = recommend(parse_profile(_with_options(MYSQL_80, include_defaults=False)))
    asked = recommend(parse_profile(_with_options(MYSQL_80, include_defaults=True)))
    assert plain.id == explicit.id != asked.id
    assert "options" not in plain.profile.raw
    assert asked.profile.raw["options"] == {"include_defaults": True}


@pytest.mark.parametrize("value", ["yes", 1, None, [True]])
def test_include_defaults_must_be_a_boolean(value: object) -> None:
    if value is None:  # null reads as absent, like every optional field
        parse_profile(_with_options(MYSQL_80, include_defaults=value))
        return
    with pytest.raises(ProfileError) as raised:
        parse_profile(_with_options(MYSQL_80, include_defaults=value))
    assert raised.value.errors == {"options.include_defaults": ["must be true or false"]}


def test_options_refuses_unknown_keys() -> None:
    with pytest.raises(ProfileError) as raised:
        parse_profile(_with_options(MYSQL_80, include_everything=True))
    assert list(raised.value.errors) == ["options.include_everything"]
