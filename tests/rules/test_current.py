"""Reading `current`: the variables object, a my.cnf, and SHOW GLOBAL VARIABLES output."""

import pickle
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.current import (
    MAX_VARIABLES,
    CurrentParseError,
    normalise_name,
    parse_current,
    parse_number,
)
from rules.errors import ProfileError
from rules.profile import Current
from rules.schema import CURRENT_FORMS, MAX_CURRENT_TEXT_BYTES
from rules.validation import parse_profile

SEED = Path("/work/shared/seeds/000_7c468d40db4ffd95.txt")
# The "my.cnf settings for the v4 Google patch" from seed 000 (Callaghan 2009), as published:
# no section header, bare booleans and skip_ prefixes.
GOOGLE_V4_MYCNF = """\
innodb_buffer_pool_size=1200M
innodb_log_file_size=1900M
innodb_flush_log_at_trx_commit=2
innodb_io_capacity=250
innodb_read_io_threads=2
innodb_write_io_threads=2
innodb_max_dirty_pages_pct=80 or 20
innodb_ibuf_max_pct_of_buffer=10
skip_innodb_ibuf_reads_sync
innodb_doublewrite=0
innodb_file_per_table
allow_view_trigger_sp_subquery
skip_innodb_readahead_random
skip_innodb_readahead_sequential
innodb_flush_method=O_DIRECT
innodb_check_max_dirty_foreground
"""
ERROR_FIELDS = {"variables", "mycnf", "show_variables", "os"}


def mycnf(body: str) -> dict[str, str]:
    return parse_current({"mycnf": "[mysqld]\n" + body}).variables


def current_or_error(raw: object) -> Current | CurrentParseError:
    """What parse_current gives for raw; any other exception fails the test."""
    try:
        return parse_current(raw)  # type: ignore[arg-type]
    except CurrentParseError as problem:
        return problem


def error_of(raw: object) -> CurrentParseError:
    with pytest.raises(CurrentParseError) as caught:
        parse_current(raw)  # type: ignore[arg-type]
    return caught.value


# --- names and numbers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("innodb_io_capacity", "innodb_io_capacity"),
        ("Innodb-IO-Capacity", "innodb_io_capacity"),
        ("innodb-io_capacity", "innodb_io_capacity"),
        ("  innodb_io_capacity ", "innodb_io_capacity"),
        ("loose-innodb-io-capacity", "innodb_io_capacity"),
        ("loose_innodb_io_capacity", "innodb_io_capacity"),
        ("LOOSE-innodb_io_capacity", "innodb_io_capacity"),
        ("--innodb-io-capacity", "innodb_io_capacity"),
        ("skip-innodb-doublewrite", "skip_innodb_doublewrite"),
    ],
)
def test_it_normalises_names_to_the_servers_spelling(name: str, expected: str) -> None:
    assert normalise_name(name) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("200", 200),
        (" 200 ", 200),
        ("-1", -1),
        ("18446744073709551615", 18446744073709551615),
        ("1900M", 1992294400),
        ("1000m", 1048576000),
        ("2G", 2147483648),
        ("64k", 65536),
        ("64K", 65536),
        ("1T", 1099511627776),
        ("1P", 1125899906842624),
        ("0.5", 0.5),
        ("90.000000", 90.0),
        ("1e3", 1000.0),
        ("ON", None),
        ("OFF", None),
        ("O_DIRECT", None),
        ("80 or 20", None),
        ("1.5G", None),
        ("12MB", None),
        ("0x10", None),
        ("", None),
        ("inf", None),
        ("nan", None),
        ("1e999", None),
        ("٣", None),
        ("9" * 5000, None),
    ],
)
def test_it_reads_numbers_as_the_server_does(text: str, expected: int | float | None) -> None:
    result = parse_number(text)
    assert result == expected
    assert type(result) is type(expected)


# --- my.cnf ----------------------------------------------------------------------------------


def test_it_reads_the_seed_articles_snippet_without_a_section_header() -> None:
    assert "skip_innodb_readahead_random" in SEED.read_text()
    current = parse_current({"mycnf": GOOGLE_V4_MYCNF})
    assert current.origin == "mycnf"
    assert current.variables["innodb_buffer_pool_size"] == "1200M"
    assert parse_number(current.variables["innodb_log_file_size"]) == 1900 * 1024 * 1024
    assert current.variables["innodb_readahead_random"] == "OFF"
    assert current.variables["innodb_ibuf_reads_sync"] == "OFF"
    assert current.variables["innodb_file_per_table"] == "ON"
    assert current.variables["innodb_max_dirty_pages_pct"] == "80 or 20"
    assert current.variables["innodb_flush_method"] == "O_DIRECT"
    assert len(current.variables) == 16
    assert any("no [mysqld] section header" in note for note in current.notes)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("innodb_io_capacity=200", {"innodb_io_capacity": "200"}),
        ("innodb_io_capacity = 200", {"innodb_io_capacity": "200"}),
        ("  innodb_io_capacity\t=\t200  ", {"innodb_io_capacity": "200"}),
        ("innodb-io-capacity=200", {"innodb_io_capacity": "200"}),
        ("Innodb_IO_Capacity=200", {"innodb_io_capacity": "200"}),
        ("innodb_file_per_table", {"innodb_file_per_table": "ON"}),
        ("innodb_flush_log_at_trx_commit=", {"innodb_flush_log_at_trx_commit": ""}),
        (
            "innodb_data_file_path=ibdata1:12M:autoextend",
            {"innodb_data_file_path": "ibdata1:12M:autoextend"},
        ),
    ],
)
def test_it_reads_name_value_lines(body: str, expected: dict[str, str]) -> None:
    assert mycnf(body) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("loose-innodb-io-capacity=200", {"innodb_io_capacity": "200"}),
        ("loose_innodb_io_capacity = 200", {"innodb_io_capacity": "200"}),
        ("loose-skip-innodb-doublewrite", {"innodb_doublewrite": "OFF"}),
        ("loose_innodb_file_per_table", {"innodb_file_per_table": "ON"}),
    ],
)
def test_it_reads_loose_prefixed_options(body: str, expected: dict[str, str]) -> None:
    assert mycnf(body) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("skip_innodb_doublewrite", {"innodb_doublewrite": "OFF"}),
        ("skip-innodb-doublewrite", {"innodb_doublewrite": "OFF"}),
        ("skip_innodb_readahead_random", {"innodb_readahead_random": "OFF"}),
        ("disable-innodb-adaptive-hash-index", {"innodb_adaptive_hash_index": "OFF"}),
        ("enable-innodb-adaptive-hash-index", {"innodb_adaptive_hash_index": "ON"}),
        ("enable_innodb_stats_persistent=0", {"innodb_stats_persistent": "0"}),
        ("skip-innodb-doublewrite=1", {"innodb_doublewrite": "OFF"}),
        ("skip-innodb-doublewrite=0", {"innodb_doublewrite": "ON"}),
        ("skip-log-bin", {"log_bin": "OFF"}),
        ("skip-name-resolve", {"skip_name_resolve": "ON"}),
        ("skip_external_locking", {"skip_external_locking": "ON"}),
        ("skip-networking=OFF", {"skip_networking": "OFF"}),
    ],
)
def test_it_turns_skip_disable_and_enable_prefixes_into_values(
    body: str, expected: dict[str, str]
) -> None:
    assert mycnf(body) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("innodb_flush_method='O_DIRECT'", {"innodb_flush_method": "O_DIRECT"}),
        ('innodb_flush_method = "O_DIRECT"', {"innodb_flush_method": "O_DIRECT"}),
        ('datadir = "/var/lib/my sql"', {"datadir": "/var/lib/my sql"}),
        ("innodb_io_capacity=200 # measured with fio", {"innodb_io_capacity": "200"}),
        ("innodb_io_capacity=200# no space", {"innodb_io_capacity": "200"}),
        ('datadir="/data/#1" # the # inside quotes stays', {"datadir": "/data/#1"}),
        (
            "init_connect='SET NAMES utf8mb4 # not a comment'",
            {"init_connect": "SET NAMES utf8mb4 # not a comment"},
        ),
        ('init_connect="say \\"hi\\" # still quoted"', {"init_connect": 'say "hi" # still quoted'}),
        ("innodb_io_capacity='200", {"innodb_io_capacity": "'200"}),
        ("tmpdir=C:\\\\temp", {"tmpdir": "C:\\temp"}),
        ("ft_stopword_file=a\\sb", {"ft_stopword_file": "a b"}),
        ("datadir=C:\\data", {"datadir": "C:\\data"}),
    ],
)
def test_it_reads_quotes_trailing_comments_and_escapes(body: str, expected: dict[str, str]) -> None:
    assert mycnf(body) == expected


@pytest.mark.parametrize(
    "comment",
    ["# innodb_io_capacity=999", "; innodb_io_capacity=999", "   # indented", "#", ";"],
)
def test_it_skips_comment_lines(comment: str) -> None:
    assert mycnf(f"{comment}\ninnodb_io_capacity=200\n{comment}") == {"innodb_io_capacity": "200"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("innodb_io_capacity=200\ninnodb_io_capacity=400", "400"),
        ("innodb-io-capacity=200\nINNODB_IO_CAPACITY=400", "400"),
        ("innodb_io_capacity=200\n[client]\nport=1\n[mysqld]\ninnodb_io_capacity=800", "800"),
        ("innodb_io_capacity=200\n[mysqld-8.0]\ninnodb_io_capacity=900", "900"),
    ],
)
def test_a_later_assignment_wins(body: str, expected: str) -> None:
    assert mycnf(body)["innodb_io_capacity"] == expected


def test_it_keeps_size_suffixes_as_text() -> None:
    variables = mycnf("innodb_buffer_pool_size=1200M\ninnodb_log_file_size = 1900m")
    assert variables == {"innodb_buffer_pool_size": "1200M", "innodb_log_file_size": "1900m"}
    assert parse_number(variables["innodb_buffer_pool_size"]) == 1200 * 1024 * 1024


def test_it_reads_the_mysql_4_set_variable_syntax() -> None:
    assert mycnf("set-variable = innodb_buffer_pool_size=1G") == {"innodb_buffer_pool_size": "1G"}


@pytest.mark.parametrize(
    "section",
    [
        "mysqld",
        "server",
        "mariadb",
        "mariadbd",
        "mysqld-8.0",
        "mysqld-5.7",
        "mariadb-10.11",
        "mariadbd-11.4",
        "MYSQLD",
        " mysqld ",
    ],
)
def test_it_reads_the_sections_the_server_reads(section: str) -> None:
    text = f"[client]\nport=3306\n[{section}]\ninnodb_io_capacity=200\n"
    assert parse_current({"mycnf": text}).variables == {"innodb_io_capacity": "200"}


@pytest.mark.parametrize(
    "section", ["client", "mysqld_safe", "mysql", "mysqldump", "client-server", "mysqld-x"]
)
def test_it_ignores_sections_for_other_programs_and_names_them(section: str) -> None:
    text = f"[{section}]\ninnodb_io_capacity=999\n[mysqld]\ninnodb_io_capacity=200\n"
    current = parse_current({"mycnf": text})
    assert current.variables == {"innodb_io_capacity": "200"}
    assert [note for note in current.notes if f"[{section}]" in note]


def test_it_records_one_note_for_everything_it_ignored() -> None:
    text = (
        "port=3306\n# a comment\n[client]\nuser=x\n[mysqld_safe]\nnice=0\n[client]\nhost=h\n"
        "[mysqld]\ninnodb_io_capacity=200\n"
    )
    notes = [n for n in parse_current({"mycnf": text}).notes if n.startswith("ignored")]
    assert notes == [
        "ignored what is not for the server: [client], [mysqld_safe], "
        "1 line(s) before the first section"
    ]


def test_it_notes_that_version_sections_were_read() -> None:
    current = parse_current({"mycnf": "[mysqld-8.0]\ninnodb_redo_log_capacity=2G\n"})
    assert current.variables == {"innodb_redo_log_capacity": "2G"}
    assert any("[mysqld-8.0]" in note for note in current.notes)


@pytest.mark.parametrize(
    ("line", "note"),
    [
        (
            "!include /etc/mysql/conf.d/x.cnf",
            "!include /etc/mysql/conf.d/x.cnf was not followed; paste that file too",
        ),
        (
            "!includedir /etc/mysql/mysql.conf.d/",
            "!includedir /etc/mysql/mysql.conf.d/ was not followed; paste the files in it too",
        ),
    ],
)
def test_it_notes_includes_it_did_not_follow(line: str, note: str) -> None:
    current = parse_current({"mycnf": f"{line}\n[mysqld]\ninnodb_io_capacity=200\n{line}\n"})
    assert current.notes.count(note) == 2
    assert current.variables == {"innodb_io_capacity": "200"}


def test_it_notes_lines_that_are_not_options() -> None:
    current = parse_current({"mycnf": "[mysqld]\ninnodb io capacity = 200\ninnodb_io_capacity=1"})
    assert current.variables == {"innodb_io_capacity": "1"}
    assert any("line 2" in note and "not option lines" in note for note in current.notes)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", ""),
        ("\n\n   \n", ""),
        ("# only a comment\n; and another", ""),
        ("[client]\nport=3306\n[mysqld_safe]\nnice=0\n", "found only [client], [mysqld_safe]"),
        ("[mysqld]\n", ""),
        ("innodb_io_capacity\t200\n", "give it as show_variables"),
        ("| innodb_io_capacity | 200 |\n", "give it as show_variables"),
        ("!includedir /etc/mysql/conf.d/\n", ""),
        ("[mysqld]\ninnodb io capacity = 200\n", "not option lines, e.g. line 2"),
    ],
)
def test_it_rejects_a_mycnf_without_server_variables(text: str, hint: str) -> None:
    problem = error_of({"mycnf": text})
    assert problem.field == "mycnf"
    assert str(problem).startswith(
        "no server variables found; expected lines like innodb_io_capacity=200 under [mysqld]"
    )
    assert hint in str(problem)


# --- SHOW GLOBAL VARIABLES -------------------------------------------------------------------

EXPECTED_ROWS = {
    "innodb_flush_method": "O_DIRECT",
    "innodb_io_capacity": "200",
    "innodb_io_capacity_max": "2000",
    "version_comment": "MySQL Community Server - GPL",
}
BATCH = (
    "Variable_name\tValue\ninnodb_flush_method\tO_DIRECT\ninnodb_io_capacity\t200\n"
    "innodb_io_capacity_max\t2000\nversion_comment\tMySQL Community Server - GPL\n"
)
TABLE = """\
mysql> SHOW GLOBAL VARIABLES;
+------------------------+------------------------------+
| Variable_name          | Value                        |
+------------------------+------------------------------+
| innodb_flush_method    | O_DIRECT                     |
| innodb_io_capacity     | 200                          |
| innodb_io_capacity_max | 2000                         |
| version_comment        | MySQL Community Server - GPL |
+------------------------+------------------------------+
4 rows in set (0.00 sec)
"""
VERTICAL = """\
MariaDB [(none)]> SHOW GLOBAL VARIABLES\\G
*************************** 1. row ***************************
Variable_name: innodb_flush_method
        Value: O_DIRECT
*************************** 2. row ***************************
Variable_name: innodb_io_capacity
        Value: 200
*************************** 3. row ***************************
Variable_name: innodb_io_capacity_max
        Value: 2000
*************************** 4. row ***************************
Variable_name: version_comment
        Value: MySQL Community Server - GPL
4 rows in set (0.001 sec)
"""
SPACED = (
    "Variable_name    Value\ninnodb_flush_method    O_DIRECT\ninnodb_io_capacity 200\n"
    "innodb_io_capacity_max\u00a02000\nversion_comment   MySQL Community Server - GPL\n"
)


@pytest.mark.parametrize(
    "text",
    [BATCH, TABLE, VERTICAL, SPACED, BATCH.replace("\n", "\r\n"), TABLE.replace("\n", "\r\n")],
    ids=["batch", "table", "vertical", "spaces", "batch-crlf", "table-crlf"],
)
def test_it_reads_show_variables_in_each_client_format(text: str) -> None:
    current = parse_current({"show_variables": text})
    assert current.origin == "show_variables"
    assert current.variables == EXPECTED_ROWS
    assert current.notes == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("innodb_data_home_dir\t\n", {"innodb_data_home_dir": ""}),
        ("| innodb_data_home_dir |       |\n", {"innodb_data_home_dir": ""}),
        ("Variable_name: innodb_data_home_dir\nValue: \n", {"innodb_data_home_dir": ""}),
        ("tmpdir\tC:\\\\temp\n", {"tmpdir": "C:\\temp"}),
        ("Innodb_IO_Capacity\t200\n", {"innodb_io_capacity": "200"}),
        ("validate_password.length\t8\n", {"validate_password.length": "8"}),
        (
            "optimizer_switch\tindex_merge=on,mrr=on\n",
            {"optimizer_switch": "index_merge=on,mrr=on"},
        ),
    ],
)
def test_it_reads_empty_escaped_and_dotted_rows(text: str, expected: dict[str, str]) -> None:
    assert parse_current({"show_variables": text}).variables == expected


def test_it_notes_rows_it_could_not_read() -> None:
    current = parse_current({"show_variables": "innodb_io_capacity\t200\n!!! garbage !!!\n"})
    assert current.variables == {"innodb_io_capacity": "200"}
    assert current.notes == ("ignored 1 line(s) that are not rows, e.g. line 2: '!!! garbage !!!'",)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("", ""),
        ("Empty set (0.00 sec)\n", ""),
        ("+---+\n| Variable_name | Value |\n+---+\n", ""),
        ("[mysqld]\ninnodb_io_capacity=200\n", "give it as mycnf"),
        ("innodb_io_capacity = 200\n", "give it as mycnf"),
    ],
)
def test_it_rejects_show_variables_without_rows(text: str, hint: str) -> None:
    problem = error_of({"show_variables": text})
    assert problem.field == "show_variables"
    assert "no server variables found" in str(problem)
    assert hint in str(problem)


# --- checks shared by both text forms --------------------------------------------------------


@pytest.mark.parametrize("form", ["mycnf", "show_variables"])
@pytest.mark.parametrize("value", [None, 200, ["[mysqld]"], {"a": "b"}, b"[mysqld]", True])
def test_it_rejects_text_forms_that_are_not_text(form: str, value: object) -> None:
    problem = error_of({form: value})
    assert problem.field == form
    assert str(problem).startswith("must be text")


@pytest.mark.parametrize("form", ["mycnf", "show_variables"])
@pytest.mark.parametrize(
    "text",
    [
        "innodb_io_capacity=200\n" * (MAX_CURRENT_TEXT_BYTES // 23 + 1),
        "innodb_io_capacity=" + "9" * MAX_CURRENT_TEXT_BYTES,
        "innodb_io_capacity=" + "é" * (MAX_CURRENT_TEXT_BYTES // 2),  # few characters, many bytes
    ],
    ids=["many-lines", "one-huge-line", "multibyte"],
)
def test_it_rejects_text_over_the_size_limit(form: str, text: str) -> None:
    problem = error_of({form: text})
    assert problem.field == form
    assert f"{MAX_CURRENT_TEXT_BYTES:,} bytes" in str(problem)


@pytest.mark.parametrize("form", ["mycnf", "show_variables"])
@pytest.mark.parametrize(
    "text",
    [
        "[mysqld]\ninnodb_io_capacity=200\x00\n",
        bytes(range(256)).decode("latin-1") * 4,
        "\x7fELF\x02\x01\x01\x00" + "\x00\x03\x00>\x00\x01" * 50,
        "\ufffd\ufffd\x1b\ufffdPNG\x1a\ufffd" * 30,
        "[mysqld]\ninnodb_io_capacity=\ud800\n",
    ],
    ids=["nul", "latin-1-bytes", "elf", "replacement-chars", "lone-surrogate"],
)
def test_it_rejects_binary_data(form: str, text: str) -> None:
    problem = error_of({form: text})
    assert problem.field == form
    assert "does not look like a my.cnf / SHOW GLOBAL VARIABLES output" in str(problem)


def test_it_accepts_a_byte_order_mark_and_a_few_stray_control_characters() -> None:
    text = "\ufeff[mysqld]\ninnodb_io_capacity=200\x0c\ninnodb_flush_method=O_DIRECT\n"
    assert parse_current({"mycnf": text}).variables == {
        "innodb_io_capacity": "200",
        "innodb_flush_method": "O_DIRECT",
    }


# --- the variables object --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"innodb_io_capacity": "200"}, {"innodb_io_capacity": "200"}),
        ({"innodb_io_capacity": 200}, {"innodb_io_capacity": "200"}),
        ({"innodb_io_capacity": 200.0}, {"innodb_io_capacity": "200"}),
        ({"innodb_max_dirty_pages_pct": 75.5}, {"innodb_max_dirty_pages_pct": "75.5"}),
        ({"innodb_doublewrite": True}, {"innodb_doublewrite": "ON"}),
        ({"innodb_doublewrite": False}, {"innodb_doublewrite": "OFF"}),
        ({"Innodb-Buffer-Pool-Size": " 8G "}, {"innodb_buffer_pool_size": "8G"}),
        ({"loose-innodb_io_capacity": "200"}, {"innodb_io_capacity": "200"}),
        ({"validate_password.length": 8}, {"validate_password.length": "8"}),
        ({"innodb_data_home_dir": ""}, {"innodb_data_home_dir": ""}),
    ],
)
def test_it_reads_the_variables_object(given: dict[str, object], expected: dict[str, str]) -> None:
    current = parse_current({"variables": given, "os": {"io_scheduler": "cfq"}})
    assert current == Current(variables=expected, os={"io_scheduler": "cfq"}, origin="variables")


def test_it_notes_a_variable_given_twice_with_different_values() -> None:
    current = parse_current({"variables": {"innodb-io-capacity": 100, "innodb_io_capacity": 200}})
    assert current.variables == {"innodb_io_capacity": "200"}
    assert current.notes == ("innodb_io_capacity was given twice; the later value '200' was used",)


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (None, "must be an object"),
        ("innodb_io_capacity=200", "must be an object"),
        ([["innodb_io_capacity", "200"]], "must be an object"),
        ({"innodb io capacity": "200"}, "'innodb io capacity' is not a variable name"),
        ({"": "200"}, "'' is not a variable name"),
        ({"x" * 65: "1"}, "is not a variable name"),
        ({"innodb_io_capacity;DROP": "1"}, "is not a variable name"),
        ({"innodb_io_capacity": None}, "'innodb_io_capacity': must be text, a number"),
        ({"innodb_io_capacity": [200]}, "got a list"),
        ({"innodb_io_capacity": {"v": 1}}, "got an object"),
        ({"innodb_io_capacity": float("nan")}, "must be a finite number"),
        ({"innodb_io_capacity": float("inf")}, "must be a finite number"),
        ({"innodb_io_capacity": 10**5000}, "the number is too large"),
        ({"innodb_io_capacity": "200\n300"}, "control characters"),
        ({"innodb_io_capacity": "\ud800"}, "control characters"),
        ({"innodb_io_capacity": "9" * 70_000}, "longer than"),
        ({}, "no server variables given"),
    ],
)
def test_it_rejects_a_bad_variables_object_naming_the_entry(given: object, message: str) -> None:
    problem = error_of({"variables": given})
    assert problem.field == "variables"
    assert message in str(problem)


def test_it_rejects_more_than_5000_variables() -> None:
    too_many = {f"var_{n}": "1" for n in range(MAX_VARIABLES + 1)}
    assert "limit is 5,000" in str(error_of({"variables": too_many}))
    assert len(parse_current({"variables": dict(list(too_many.items())[:-1])}).variables) == 5000


# --- os ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"io_scheduler": "cfq"}, {"io_scheduler": "cfq"}),
        ({"io_scheduler": " MQ-Deadline\n"}, {"io_scheduler": "mq-deadline"}),
        ({"io_scheduler": "[mq-deadline] none bfq"}, {"io_scheduler": "mq-deadline"}),
        ({"io_scheduler": "noop deadline [cfq]"}, {"io_scheduler": "cfq"}),
        ({"io_scheduler": "[none] mq-deadline kyber bfq"}, {"io_scheduler": "none"}),
        ({"read_ahead_kb": "128", "swappiness": "1"}, {"read_ahead_kb": "128", "swappiness": "1"}),
        ({"read_ahead_kb": 4096, "swappiness": 60}, {"read_ahead_kb": "4096", "swappiness": "60"}),
        ({}, {}),
        (None, {}),
    ],
)
def test_it_reads_os_settings_with_any_form(given: object, expected: dict[str, str]) -> None:
    assert parse_current({"variables": {"innodb_io_capacity": 200}, "os": given}).os == expected
    assert parse_current({"mycnf": "innodb_io_capacity=200", "os": given}).os == expected
    assert parse_current({"show_variables": "innodb_io_capacity\t200", "os": given}).os == expected


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("cfq", "must be an object"),
        (["cfq"], "must be an object"),
        ({"scheduler": "cfq"}, "allowed: io_scheduler, read_ahead_kb, swappiness"),
        ({"io_scheduler": 1}, "io_scheduler must be text"),
        ({"io_scheduler": ""}, "io_scheduler must be one scheduler name"),
        ({"io_scheduler": "none mq-deadline"}, "io_scheduler must be one scheduler name"),
        ({"io_scheduler": "echo cfq > /sys/block/sda/queue/scheduler"}, "one scheduler name"),
        ({"read_ahead_kb": "-1"}, "read_ahead_kb must be a whole number"),
        ({"read_ahead_kb": "128k"}, "read_ahead_kb must be a whole number"),
        ({"read_ahead_kb": True}, "read_ahead_kb must be a whole number"),
        ({"swappiness": 201}, "swappiness must be a whole number from 0 to 200"),
        ({"swappiness": 1.5}, "swappiness must be a whole number"),
    ],
)
def test_it_rejects_bad_os_settings(given: object, message: str) -> None:
    problem = error_of({"mycnf": "innodb_io_capacity=200", "os": given})
    assert problem.field == "os"
    assert message in str(problem)


def test_it_accepts_only_os_settings_with_an_empty_variables_object() -> None:
    current = parse_current({"variables": {}, "os": {"io_scheduler": "bfq"}})
    assert current == Current(variables={}, os={"io_scheduler": "bfq"}, origin="variables")


# --- the form itself ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        {},
        {"os": {"io_scheduler": "cfq"}},
        {"variables": {"a": 1}, "mycnf": "a=1"},
        {"mycnf": "a=1", "show_variables": "a\t1"},
        [],
        "innodb_io_capacity=200",
        None,
    ],
)
def test_it_requires_exactly_one_form(raw: object) -> None:
    problem = error_of(raw)
    assert problem.field in CURRENT_FORMS
    assert "variables, mycnf, show_variables" in str(problem)


def test_profile_validation_reports_the_error_under_its_field() -> None:
    profile = {
        "server": {"flavor": "mysql", "version": "8.0.36"},
        "hardware": {
            "ram_gb": 64,
            "cpu_cores": 16,
            "storage": {"media": "nvme", "device_count": 1},
        },
        "workload": {"kind": "oltp", "data_size_gb": 200, "concurrency": 64},
        "current": {"mycnf": "[client]\nport=3306\n"},
    }
    with pytest.raises(ProfileError) as caught:
        parse_profile(profile)
    assert list(caught.value.errors) == ["current.mycnf"]
    profile["current"] = {"mycnf": GOOGLE_V4_MYCNF, "os": {"io_scheduler": "[none] mq-deadline"}}
    current = parse_profile(profile).current
    assert current is not None
    assert current.variables["innodb_io_capacity"] == "250"
    assert current.os == {"io_scheduler": "none"}


def test_the_error_names_its_field_and_survives_pickling() -> None:
    problem = CurrentParseError("mycnf", "must be text")
    copy = pickle.loads(pickle.dumps(problem))
    assert (copy.field, str(copy)) == ("mycnf", "must be text")
    assert isinstance(copy, ValueError)


# --- properties --------------------------------------------------------------------------------

MYCNF_PIECES = [
    "[mysqld]",
    "[client]",
    "[mysqld-8.0]",
    "[",
    "]",
    "innodb_io_capacity",
    "skip-",
    "loose-",
    "disable_",
    "enable-",
    "maximum-",
    "set-variable",
    "=",
    " = ",
    "#",
    ";",
    "'",
    '"',
    "\\",
    "!include ",
    "!includedir",
    "|",
    "\t",
    "Variable_name:",
    "Value:",
    "***",
    "+---+",
    "200",
    "1900M",
    "ON",
    "\n",
    "\r\n",
    " ",
    "é",
    "\u2028",
    "\x0c",
    "\x00",
    "\ud800",
    "mysql> ",
    "4 rows in set",
    ".",
    "-",
    "_",
]
ANY_CHARACTER = st.characters(codec=None, categories=None, exclude_categories=())
OPTION_LINES = st.lists(
    st.tuples(
        st.sampled_from(["", "", "loose-", "skip-", "[mysqld]\n", "| ", "Variable_name: "]),
        st.from_regex(r"[A-Za-z][A-Za-z0-9_-]{0,20}", fullmatch=True),
        st.sampled_from(["=", " = ", "\t", " | ", "\nValue: ", "", " "]),
        st.sampled_from(["200", "1900M", "'O_DIRECT'", '"a # b"', "ON", "", "\\", "\x0c"]),
        st.sampled_from(["", "", " # note", " |", "#", "'"]),
    ).map("".join),
    max_size=15,
).map("\n".join)
TEXTS = st.one_of(
    OPTION_LINES,
    st.text(),
    st.text(ANY_CHARACTER),
    st.binary().map(lambda data: data.decode("latin-1")),
    st.binary().map(lambda data: data.decode("utf-8", "replace")),
    st.lists(st.sampled_from(MYCNF_PIECES), max_size=60).map("".join),
    st.lists(st.lists(st.sampled_from(MYCNF_PIECES), max_size=6).map("".join), max_size=20).map(
        "\n".join
    ),
    st.tuples(st.sampled_from(MYCNF_PIECES), st.integers(0, 2 * MAX_CURRENT_TEXT_BYTES)).map(
        lambda piece_count: piece_count[0] * (piece_count[1] // max(len(piece_count[0]), 1))
    ),
)
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.just(5000).map(lambda digits: 10**digits),  # str() of it raises ValueError
    st.floats(),
    st.text(max_size=30),
    TEXTS,
)
VARIABLE_VALUE = st.one_of(
    st.sampled_from(["200", "1900M", "", " ON ", "a\nb"]), st.booleans(), st.integers(), st.floats()
)


def _json_containers(inner: st.SearchStrategy[object]) -> st.SearchStrategy[object]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)


JSON = st.recursive(JSON_SCALARS, _json_containers, max_leaves=20)
KEYS = st.sampled_from([*CURRENT_FORMS, "os", "other"]) | st.text(max_size=10)
OS_KEY = st.sampled_from(["io_scheduler", "read_ahead_kb", "swappiness", "x"])
OS_VALUE = st.sampled_from(["cfq", "[mq-deadline] none bfq", "[", "128", 60, -1, "x y"]) | JSON
OS_PARTS = st.one_of(st.none(), st.just({}), st.dictionaries(OS_KEY, OS_VALUE, max_size=3), JSON)
VARIABLE_NAME = (
    st.text(max_size=70)
    | st.sampled_from(MYCNF_PIECES)
    | st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,70}", fullmatch=True)
)
CURRENTS = st.one_of(
    JSON,
    st.dictionaries(KEYS, JSON, max_size=3),
    st.builds(lambda form, text: {form: text}, st.sampled_from(["mycnf", "show_variables"]), TEXTS),
    st.builds(
        lambda form, text, os_part: {form: text, "os": os_part},
        st.sampled_from(["mycnf", "show_variables"]),
        TEXTS,
        OS_PARTS,
    ),
    st.builds(
        lambda variables, os_part: {"variables": variables, "os": os_part},
        st.dictionaries(VARIABLE_NAME, VARIABLE_VALUE | JSON, max_size=5) | JSON,
        OS_PARTS,
    ),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CURRENTS)
def test_any_input_gives_a_current_or_a_current_parse_error(raw: object) -> None:
    current = current_or_error(raw)
    if isinstance(current, CurrentParseError):
        assert current.field in ERROR_FIELDS
        assert str(current)
        return
    assert current.origin in CURRENT_FORMS
    assert current.variables or current.os
    for name, value in current.variables.items():
        assert len(name) <= 64
        assert re.fullmatch(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?", name)
        assert not re.search(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]", value)
    assert set(current.os) <= {"io_scheduler", "read_ahead_kb", "swappiness"}
    assert all(isinstance(note, str) for note in current.notes)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=60), st.text(ANY_CHARACTER, max_size=60)))
def test_parse_number_never_raises(text: str) -> None:
    assert parse_number(text) is None or isinstance(parse_number(text), int | float)


SPECIAL_PREFIXES = ("skip_", "disable_", "enable_", "maximum_", "loose_", "set_variable")
NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,40}", fullmatch=True).filter(
    lambda name: not name.startswith(SPECIAL_PREFIXES)
)
VALUES = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E) | st.sampled_from("éß日ü"),
    max_size=30,
)


def option_line(name: str, value: str, spelling: int) -> str:
    """One my.cnf line for name=value, quoted and escaped as the server needs."""
    if spelling % 2:
        name = name.replace("_", "-")
    if spelling % 3 == 0:
        name = "loose-" + name.upper()
    escaped = value.replace("\\", "\\\\")
    needs_quotes = (
        "#" in value
        or value != value.strip()
        or (value[:1] in ("'", '"') and value[-1:] == value[:1])
    )
    if needs_quotes:
        escaped = '"' + escaped.replace('"', '\\"') + '"'
    separator = " = " if spelling % 5 == 0 else "="
    return f"{name}{separator}{escaped}"


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(NAMES, VALUES, min_size=1, max_size=20), st.integers(0, 29))
def test_a_generated_mycnf_round_trips_to_the_same_variables(
    variables: dict[str, str], spelling: int
) -> None:
    lines = [
        option_line(name, value, spelling + n) for n, (name, value) in enumerate(variables.items())
    ]
    text = "# generated\n[client]\nport=3306\n\n[mysqld]\n" + "\n".join(lines) + "\n"
    assert parse_current({"mycnf": text}).variables == variables


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(NAMES, VALUES.map(str.strip), min_size=1, max_size=20))
def test_a_generated_batch_output_round_trips_to_the_same_variables(
    variables: dict[str, str],
) -> None:
    rows = [f"{name}\t{value.replace(chr(92), chr(92) * 2)}" for name, value in variables.items()]
    text = "Variable_name\tValue\n" + "\n".join(rows) + "\n"
    assert parse_current({"show_variables": text}).variables == variables
