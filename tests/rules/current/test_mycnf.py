"""The my.cnf form: sections, comments, quotes, escapes and option prefixes."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.current import parse_current, parse_number
from tests.rules.current.fixtures import GOOGLE_V4_MYCNF, NAMES, VALUES, error_of

SEED = Path("/work/shared/seeds/000_7c468d40db4ffd95.txt")


def mycnf(body: str) -> dict[str, str]:
    return parse_current({"mycnf": "[mysqld]\n" + body}).variables


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
        ("[mysqld]\ninnodb io capacity = 200\n", "not option lines: line 2"),
    ],
)
def test_it_rejects_a_mycnf_without_server_variables(text: str, hint: str) -> None:
    problem = error_of({"mycnf": text})
    assert problem.field == "mycnf"
    assert str(problem).startswith(
        "no server variables found; expected lines like innodb_io_capacity=200 under [mysqld]"
    )
    assert hint in str(problem)


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
