"""The vendored Aurora User Guide page is the file its README names, and the checked-in
rules/data/aurora_mysql3_parameters.json is exactly what scripts/derive_aurora_parameters.py
makes of it. The spot checks below were read off the page by a person (its cluster-level and
instance-level tables and its "don't apply" list), not taken from the script's output."""

import hashlib
import json
import re

import pytest

from scripts.derive_aurora_parameters import (
    ROOT,
    SOURCE,
    TARGET,
    UnknownWording,
    derive,
    derived_text,
    main,
)

VENDOR = ROOT / "rules" / "data" / "vendor"


def readme_hashes() -> dict[str, str]:
    """file -> sha256 from the Aurora section of rules/data/vendor/README.md."""
    text = (VENDOR / "README.md").read_text(encoding="utf-8")
    section = text.split("## Amazon Aurora MySQL", 1)[1]
    return {name: digest for digest, name in re.findall(r"^([0-9a-f]{64})  (\S+)$", section, re.M)}


def test_every_vendored_aws_file_has_the_hash_the_readme_gives() -> None:
    hashes = readme_hashes()
    files = {p.name: p for p in (VENDOR / "aws").iterdir()}
    assert set(hashes) == set(files)
    for name, path in files.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == hashes[name], name


def test_the_checked_in_lists_are_what_the_script_makes_of_the_vendored_page() -> None:
    expected = derived_text(SOURCE.read_bytes())
    hint = "run `python scripts/derive_aurora_parameters.py` and review the diff"
    assert TARGET.read_text(encoding="utf-8") == expected, hint
    data = json.loads(expected)
    assert data["source_sha256"] == hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    assert main(["--check"]) == 0


def test_the_script_reads_the_page_as_a_person_does() -> None:
    data = derive(SOURCE.read_bytes())
    cluster, instance = data["cluster"], data["instance"]
    assert isinstance(cluster, dict)
    assert isinstance(instance, dict)
    # Instance-level table: "innodb_buffer_pool_size | Yes", "innodb_read_io_threads | No".
    assert instance["innodb_buffer_pool_size"] == "modifiable"
    assert instance["innodb_lru_scan_depth"] == "modifiable"
    assert instance["innodb_read_io_threads"] == "not modifiable"
    assert instance["sync_binlog"] == "not modifiable"
    # "It's modifiable only at the DB cluster level in Aurora MySQL version 3."
    assert instance["innodb_adaptive_hash_index"] == "only at the cluster level"
    assert cluster["innodb_adaptive_hash_index"] == "modifiable"
    # "Aurora MySQL version 2: Yes Aurora MySQL version 3: No"
    assert cluster["innodb_flush_log_at_trx_commit"] == "not modifiable"
    # "Removed from Aurora MySQL version 3." / "Aurora MySQL version 2 only"
    assert instance["query_cache_size"] == "not in version 3"
    assert instance["performance_schema_max_sql_text_length"] == "not in version 3"
    # "Sometimes" with "Modifiable in Aurora MySQL version 2 and higher."
    assert cluster["enforce_gtid_consistency"] == "modifiable"
    assert cluster["lower_case_table_names"] == "only at cluster creation"
    inapplicable = data["not_applicable"]
    assert isinstance(inapplicable, list)
    for name in (
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        "innodb_flush_method",
        "innodb_doublewrite",
        "innodb_log_file_size",
        "innodb_redo_log_capacity",
        "innodb_flush_neighbors",
        "innodb_flush_log_at_timeout",
    ):
        assert name in inapplicable
    # "This parameter doesn't apply to Aurora MySQL version 2. It is available in ... version 3."
    assert "innodb_deadlock_detect" not in inapplicable
    assert "activate_all_roles_on_login" not in inapplicable


def page_with(old: str, new: str) -> bytes:
    text = SOURCE.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1).encode("utf-8")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "|   `innodb_lru_scan_depth`   |   Yes   |",
            "|   `innodb_lru_scan_depth`   |   Maybe   |",
            "Modifiable 'Maybe'",
        ),
        ("+ `innodb_doublewrite`\n", "+ `innodb_doublewrite` – From version 3.05 on.\n", "remark"),
        ("## Instance\\-level parameters", "## Instance parameters", "instance"),
        (
            "|   `innodb_lru_scan_depth`   |",
            "|   `innodb_lru_scan_depth`   | extra |",
            "three cells",
        ),
    ],
)
def test_a_wording_the_script_was_not_written_for_stops_it(
    old: str, new: str, message: str
) -> None:
    with pytest.raises(UnknownWording, match=re.escape(message)):
        derive(page_with(old, new))
