import configparser
import dataclasses
from collections.abc import Callable

import pytest

from rules.inputs.errors import OutputRefused
from rules.inputs.profile import Kernel
from rules.output.result import Result, Setting
from rules.render.jsonout import result_from_dict, result_to_dict
from rules.render.mycnf import render_mycnf
from rules.units import GIB, MIB, TIB
from tests.rules.render.fixtures import (
    ALL,
    mariadb_result,
    mysql57_result,
    mysql80_result,
    profile,
    refused_result,
)

SUMMARY = (
    "mysql 8.0.36 · 64 GiB RAM · 16 cores · 8 × hdd 15000 rpm raid10, write_back_bbu cache"
    " · xfs, kernel 5.15 · oltp, 200 GiB data, 64 clients, durability full"
)


def _with_setting(**changes: object) -> Setting:
    base = mysql80_result().settings[0]
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def _values(text: str) -> dict[str, str]:
    parser = configparser.ConfigParser(comment_prefixes=("#",), interpolation=None)
    parser.read_string(text)
    return dict(parser["mysqld"])


def test_it_writes_the_whole_file_in_a_fixed_layout() -> None:
    assert render_mycnf(mariadb_result(), base_url="https://advisor.example") == (
        "# InnoDB IO Advisor: my.cnf drop-in\n"
        "# Ruleset 2026.1, calibration 2026.1-118pts\n"
        "# Inputs: mariadb 10.11 · 64 GiB RAM · 16 cores · 8 × hdd 15000 rpm raid10,"
        " write_back_bbu cache · xfs, kernel 5.15 · oltp, 200 GiB data, 64 clients,"
        " durability full\n"
        "# Permalink: https://advisor.example/r/ma1011ma1011ma10/\n"
        "# Needs a restart to take effect: innodb_read_io_threads\n"
        "# Install: copy into the server's include directory (a file ending in .cnf, e.g.\n"
        "# /etc/mysql/conf.d/ or /etc/my.cnf.d/), then restart the server.\n"
        "\n"
        "[mysqld]\n"
        "\n"
        "# Background flushing may use about the 1,600 random writes/s of 8 × 15k disks.\n"
        "innodb_io_capacity = 1600\n"
        "\n"
        "# Reason for innodb_io_capacity_max.\n"
        "innodb_io_capacity_max = 3200\n"
        "\n"
        "# Reason for innodb_read_io_threads.\n"
        "innodb_read_io_threads = 8\n"
    )


def test_the_header_names_versions_inputs_permalink_warnings_and_restarts() -> None:
    text = render_mycnf(mysql80_result(), base_url="https://advisor.example/")
    header = text.split("[mysqld]")[0].splitlines()
    assert header[0] == "# InnoDB IO Advisor: my.cnf drop-in"
    assert "# Ruleset 2026.1, calibration 2026.1-118pts" in header
    assert f"# Inputs: {SUMMARY} · compared with the current variables" in header
    assert "# Permalink: https://advisor.example/r/7f3c0a1b2c3d4e5f/" in header
    assert "# Warning: RAM is smaller than the data: expect reads from disk." in header
    assert "# Warning: Second warning." in header
    assert "# Needs a restart to take effect: innodb_read_io_threads, innodb_flush_method" in header


def test_it_says_calibration_none_and_uses_the_bare_permalink_by_default() -> None:
    text = render_mycnf(mysql57_result())
    assert "# Ruleset 2026.1, calibration none\n" in text
    assert "# Permalink: /r/57aa57aa57aa57aa/\n" in text
    assert "# Warning:" not in text


def test_it_says_so_when_nothing_needs_a_restart() -> None:
    result = mysql80_result()
    dynamic = tuple(s for s in result.settings if s.dynamic)
    text = render_mycnf(dataclasses.replace(result, settings=dynamic))
    assert "# Needs a restart to take effect: none" in text


def test_every_value_sits_under_its_one_line_reason_in_result_order() -> None:
    result = mysql80_result()
    lines = render_mycnf(result).split("[mysqld]\n")[1].splitlines()
    server = [s for s in result.settings if s.scope == "mysqld"]
    assert len(lines) == 3 * len(server)
    for index, setting in enumerate(server):
        blank, reason, value = lines[3 * index : 3 * index + 3]
        assert blank == ""
        assert reason.startswith("# ")
        assert value.startswith(f"{setting.name} = ")


def test_it_leaves_out_settings_of_other_scopes() -> None:
    text = render_mycnf(mysql80_result())
    assert "open_files_limit" not in text


def test_values_are_spelled_as_the_server_reads_them() -> None:
    values = _values(render_mycnf(mysql80_result()))
    assert values["innodb_buffer_pool_size"] == "48G"
    assert values["innodb_redo_log_capacity"] == "1536M"
    assert values["innodb_log_buffer_size"] == str(16 * MIB + 512)
    assert values["innodb_max_dirty_pages_pct"] == "90"
    assert values["innodb_max_dirty_pages_pct_lwm"] == "12.5"
    assert values["innodb_flush_method"] == "O_DIRECT"
    assert values["innodb_random_read_ahead"] == "OFF"
    assert values["innodb_io_capacity"] == "1600"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2 * TIB, "2048G"),  # MySQL 5.7 reads no T suffix
        (GIB + MIB, "1025M"),
        (128 * 1024, "128K"),
        (1000, "1000"),
        (0, "0"),
    ],
)
def test_sizes_use_a_suffix_only_when_it_is_exact(value: int, expected: str) -> None:
    setting = _with_setting(name="innodb_buffer_pool_size", value=value, kind="bytes")
    result = dataclasses.replace(mysql80_result(), settings=(setting,))
    assert _values(render_mycnf(result))["innodb_buffer_pool_size"] == expected


@pytest.mark.parametrize(
    ("value", "expected"), [(10.0, "10"), (0.001, "0.001"), (99.99, "99.99"), (1e-05, "0.00001")]
)
def test_percentages_have_no_trailing_zeros(value: float, expected: str) -> None:
    setting = _with_setting(name="innodb_max_dirty_pages_pct", value=value, kind="percent")
    result = dataclasses.replace(mysql80_result(), settings=(setting,))
    assert _values(render_mycnf(result))["innodb_max_dirty_pages_pct"] == expected


def test_user_text_in_the_header_cannot_start_a_line_of_config() -> None:
    result = mysql80_result()
    hostile = Kernel(5, 15, "5.15\n[mysqld]\nskip_grant_tables\r\n\x00x")
    hardware = dataclasses.replace(result.profile.hardware, kernel=hostile)
    result = dataclasses.replace(
        result,
        profile=dataclasses.replace(result.profile, hardware=hardware),
        warnings=("one\ntwo\u2028three",),
    )
    text = render_mycnf(result)
    assert "\nskip_grant_tables" not in text
    assert "\x00" not in text
    assert text.count("[mysqld]\n") == 1
    assert "# Warning: one two three\n" in text
    for line in text.split("[mysqld]\n")[0].splitlines():
        assert line.startswith("#") or line == ""


def test_a_name_that_is_not_a_variable_is_refused() -> None:
    result = dataclasses.replace(mysql80_result(), settings=(_with_setting(name="x\n[client]"),))
    with pytest.raises(ValueError, match="not a server variable name"):
        render_mycnf(result)


def test_an_unsupported_version_is_refused_with_the_reason() -> None:
    with pytest.raises(OutputRefused, match=r"written for MySQL 5\.7"):
        render_mycnf(refused_result())


@pytest.mark.parametrize("make", [m for m in ALL if m is not refused_result])
def test_it_is_byte_identical_for_identical_input_and_ends_with_a_newline(
    make: Callable[[], Result],
) -> None:
    first, second = render_mycnf(make()), render_mycnf(make())
    assert first == second
    assert first.endswith("\n")
    assert not first.endswith("\n\n")


def test_the_stored_inputs_order_does_not_change_the_file() -> None:
    result = mysql80_result()
    data = result_to_dict(result)
    data["inputs"] = {key: data["inputs"][key] for key in reversed(list(data["inputs"]))}
    assert render_mycnf(result_from_dict(data)) == render_mycnf(result)


def test_the_header_names_a_pasted_show_variables_by_its_origin() -> None:
    pasted = profile(current={"origin": "show_variables", "innodb_io_capacity": "200"})
    text = render_mycnf(dataclasses.replace(mysql80_result(), profile=pasted))
    assert "compared with the pasted SHOW GLOBAL VARIABLES" in text
    assert "from show_variables" not in text
