from rules.current.kept import AUDITED_NAMES, keep_read_variables
from rules.reference.catalog import known_names


def test_it_keeps_the_query_cache_settings_the_audit_warns_about() -> None:
    pasted = {"query_cache_type": "1", "query_cache_size": "64M", "innodb_io_capacity": "200"}
    kept, notes = keep_read_variables(pasted, known_names())
    assert kept == pasted
    assert notes == []


def test_audited_names_are_not_catalog_rows_and_credentials_are_still_dropped() -> None:
    assert not AUDITED_NAMES & known_names()
    kept, notes = keep_read_variables(
        {"wsrep_sst_auth": "u:p", "query_cache_type": "0"}, known_names()
    )
    assert kept == {"query_cache_type": "0"}
    assert "wsrep_sst_auth" in notes[0]
