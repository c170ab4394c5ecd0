"""Hostile pastes: work that stays linear in the text, and credentials that never come back."""

import contextlib
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.current.kept import looks_like_credential
from rules.current.mycnf import read_mycnf
from rules.current.show_variables import read_show_variables
from rules.engine import recommend
from rules.inputs.errors import OutputRefused, ProfileError
from rules.inputs.examples import raw_profile
from rules.inputs.field_table import MAX_TEXT_BYTES
from rules.inputs.validation import parse_profile
from rules.render import FORMATS, render
from rules.render.jsonout import result_to_dict

_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _short(i: int) -> str:
    """A distinct name of at most three characters for i < 238,328, so 150k lines fit 1 MB."""
    return "".join(_ALPHABET[i // 62**power % 62] for power in (2, 1, 0))


# Shapes of text that made a parser do more than linear work, or that stress its bookkeeping.
# Each holds one server variable, so the reader reads it whole and returns.
HEAD = "[mysqld]\na=1\n"
SHAPES: dict[str, Callable[[int], str]] = {
    "distinct sections": lambda n: HEAD + "\n".join(f"[{_short(i)}]" for i in range(n)),
    "versioned server sections": lambda n: (
        HEAD + "\n".join(f"[mysqld-{i % 99}.{i // 99}]" for i in range(n // 3))
    ),
    "unread lines": lambda n: HEAD + "\n".join(f"!{_short(i)}" for i in range(n)),
    "options": lambda n: HEAD + "\n".join(f"v{_short(i)}" for i in range(n)),
    "long escaped value": lambda n: HEAD + "b='" + "\\n" * n + "'",
    "long quoted comment": lambda n: HEAD + 'b="' + "#" * n + '"',
}


def _cpu_seconds(read: Callable[[str], object], text: str) -> float:
    """The least CPU time of three reads: the least is the one the machine disturbed least."""
    best = float("inf")
    for _ in range(3):
        start = time.thread_time()
        read(text)
        best = min(best, time.thread_time() - start)
    return best


@pytest.mark.parametrize("shape", SHAPES)
def test_reading_a_my_cnf_grows_linearly_with_its_size(shape: str) -> None:
    """40k lines cost about 8 times what 5k lines cost; a quadratic reader costs 64 times (and
    took more than 30 s for 150k sections before, when a my.cnf could be 1 MB). The bound is on
    the growth of the work, measured side by side, not on wall time."""
    small, large = SHAPES[shape](5_000), SHAPES[shape](40_000)
    assert len(large.encode()) <= MAX_TEXT_BYTES["mycnf"]  # read whole, not refused for its size
    ratio = _cpu_seconds(read_mycnf, large) / max(_cpu_seconds(read_mycnf, small), 1e-4)
    assert ratio < 20, f"{shape}: 8x the lines cost {ratio:.1f}x the work"


def test_reading_show_variables_grows_linearly_with_its_size() -> None:
    rows = lambda n: "\n".join(f"v{_short(i)}" for i in range(n))  # noqa: E731
    small, large = rows(18_750), rows(150_000)
    assert len(large.encode()) <= MAX_TEXT_BYTES["show_variables"]
    ratio = _cpu_seconds(read_show_variables, large) / _cpu_seconds(read_show_variables, small)
    assert ratio < 20


def test_a_note_on_many_sections_lists_a_few_and_counts_the_rest() -> None:
    text = "[mysqld]\ninnodb_io_capacity=200\n" + "\n".join(f"[s{i}]" for i in range(30_000))
    notes = read_mycnf(text).notes
    (note,) = [n for n in notes if n.startswith("ignored what is not for the server")]
    assert "[s0], [s1], [s2], [s3], [s4] and 29,995 more" in note
    assert len(note) < 200


SECRET = "hunter2-Very-Secret"
SECRET_LINES = [
    f"wsrep_sst_auth=sstuser:{SECRET}",
    f"password={SECRET}",
    f"loose-keyring_aws_secret_access_key={SECRET}",
    f"ssl-key=/etc/mysql/{SECRET}.pem",
    f"wsrep_sst_auth sstuser:{SECRET}",  # not an option line: shown in no note either
    f"[client{SECRET}]",
]


@pytest.mark.parametrize("form", ["mycnf", "show_variables", "variables"])
def test_a_pasted_credential_is_never_kept_nor_echoed(form: str) -> None:
    lines = ["innodb_io_capacity=200", *SECRET_LINES]
    if form == "mycnf":
        current: object = "[mysqld]\n" + "\n".join(lines)
    elif form == "show_variables":
        current = "\n".join(line.replace("=", "\t", 1) for line in lines)
    else:
        current = dict(line.split("=", 1) for line in lines if "=" in line)
    raw = raw_profile(current={form: current})
    profile = parse_profile(raw)
    result = recommend(profile)
    outputs = [str(result_to_dict(result)), *every_export(result)]
    assert len(outputs) >= 9  # the JSON, and every export this MySQL 8.0 result can have
    assert all(SECRET not in text for text in outputs)
    assert profile.current is not None
    assert profile.current.variables == {"innodb_io_capacity": "200"}
    dropped = [w for w in result.warnings if "dropped and are not stored" in w]
    assert dropped, result.warnings
    assert "wsrep_sst_auth" in dropped[0]
    assert result.profile.raw["current"]["dropped_variables"] == profile.current.dropped  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("wsrep_sst_auth", True),
        ("ssl_key", True),
        ("innodb_encryption_key_id", True),
        ("keyring_file_data", True),
        ("caching_sha2_password_private_key_path", True),
        ("innodb_io_capacity", False),
        ("innodb_buffer_pool_size", False),
        ("max_connections", False),
        ("key_buffer_size", False),
        ("foreign_key_checks", False),
        ("table_open_cache", False),
        ("authentication_policy", False),
        ("innodb_adaptive_hash_index", False),
        ("have_ssl", True),
        ("tls_version", True),
        ("admin_ssl_ca", True),
        ("ssl_crl", True),
        ("replication_sender_observe_commit_only", False),
    ],
)
def test_it_tells_names_that_may_carry_credentials(name: str, secret: bool) -> None:
    assert looks_like_credential(name) is secret


def every_export(result) -> list[str]:
    """Every export that can be written for `result` (some tools run one flavor only)."""
    texts = []
    for fmt in FORMATS:
        with contextlib.suppress(OutputRefused):
            texts.append(render(result, fmt))
    return texts


MARK = "S3cr3tMark"
PRINTABLE_NO_QUOTE = st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="'\\")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["wsrep_sst_auth", "password", "ssl_cert", "innodb_io_capacity"]),
            st.text(
                st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="'\\")
            ),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_no_value_of_a_credential_variable_reaches_the_result(pairs: list[tuple[str, str]]) -> None:
    """Whatever the values, a field error or a result: neither holds a credential's value."""
    lines = [
        f"{name}='{MARK}{value}'" if looks_like_credential(name) else f"{name}={len(value)}"
        for name, value in pairs
    ]
    try:
        result = recommend(parse_profile(raw_profile(current={"mycnf": "\n".join(lines)})))
    except ProfileError as problem:
        text = str(problem.errors)
    else:
        text = str(result_to_dict(result)) + "".join(every_export(result))
    assert MARK not in text


# The shapes in which a password rides along with a paste: a shell prompt above it, a client
# option, a URL, SQL, an environment variable, a Galera SST option without `=` or with a tab.
CREDENTIAL_SHAPES = [
    "root@db1:~# mysql -uroot -p{secret} -e 'SHOW GLOBAL VARIABLES'",
    "mysql --password={secret} -h db1",
    "mysql://app:{secret}@db1:3306/shop",
    "CREATE USER 'app'@'%' IDENTIFIED BY '{secret}';",
    "MYSQL_PWD={secret} mysqldump --all-databases",
    "wsrep-sst-auth sst:{secret}",
    "wsrep_sst_auth\tsst:{secret}",
    "export DB_URL=postgres://u:{secret}@x/y",
    "{secret}",
]
SECRET_TEXT = st.text(
    st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="'\\\"|=#;[]!+*"),
    min_size=6,
    max_size=24,
).map(lambda text: "Zq9" + text)


def _paste(form: str, line: str) -> object:
    rows = ["innodb_io_capacity=200", "innodb_flush_log_at_trx_commit=2"]
    if form == "mycnf":
        return "\n".join([line, "[mysqld]", *rows, line])
    if form == "show_variables":
        return "\n".join([line, *(row.replace("=", "\t") for row in rows), line])
    return {**dict(row.split("=") for row in rows), "wsrep-sst-auth": line}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    form=st.sampled_from(["mycnf", "show_variables", "variables"]),
    shape=st.sampled_from(CREDENTIAL_SHAPES),
    secret=SECRET_TEXT,
)
def test_a_credential_riding_along_with_any_paste_never_reaches_the_result(
    form: str, shape: str, secret: str
) -> None:
    line = shape.format(secret=secret)
    try:
        result = recommend(parse_profile(raw_profile(current={form: _paste(form, line)})))
    except ProfileError as problem:
        text = str(problem.errors)
    else:
        text = str(result_to_dict(result)) + "".join(every_export(result))
    assert secret not in text


def test_a_paste_with_skipped_lines_never_shares_an_id_with_one_without() -> None:
    """The first stored copy of an id is served to every later client: a note about a skipped
    line must change the id, or a second client would be served the first client's notes."""
    clean = "[mysqld]\ninnodb_io_capacity=200\n"
    prompted = "root@db1:~# mysql -uroot -pS3cretPw -e 'SHOW GLOBAL VARIABLES'\n" + clean
    first = recommend(parse_profile(raw_profile(current={"mycnf": prompted})))
    second = recommend(parse_profile(raw_profile(current={"mycnf": clean})))
    assert first.profile.raw == second.profile.raw  # the same kept inputs...
    assert first.id != second.id  # ...but not the same result
    assert any("before the first section" in warning for warning in first.warnings)
    assert not any("before the first section" in warning for warning in second.warnings)
    assert "S3cretPw" not in str(result_to_dict(first))
