from rules.inputs.version import parse_version
from rules.reference.bibliography import has_source
from rules.reference.catalog import CATALOG_SERIES, catalog_for
from rules.registry import OS_RULES, SETTING_RULES, all_rules

# Settings a rule names but that a version replaces with its own knob.
REPLACED = {
    "innodb_redo_log_capacity": "innodb_log_file_size",
    "innodb_flush_method": "innodb_data_file_buffering",
}


def test_rule_ids_are_unique_and_kebab_case() -> None:
    ids = [rule.id for rule in all_rules()]
    assert len(ids) == len(set(ids))
    assert all(rule_id == rule_id.lower() and " " not in rule_id for rule_id in ids)


def test_every_case_of_every_rule_cites_known_sources() -> None:
    for rule in all_rules():
        for case in rule.cases.values():
            assert case.evidence
            assert all(has_source(e.source) for e in case.evidence)


def test_every_rules_setting_exists_in_each_catalog_version_or_has_a_replacement() -> None:
    for flavor, versions in CATALOG_SERIES.items():
        for text in versions:
            version = parse_version(text)
            assert version is not None
            catalog = catalog_for(flavor, version)
            for rule in SETTING_RULES:
                if rule.only_where_present:
                    continue
                name = rule.setting
                assert catalog.exists(name) or catalog.exists(REPLACED.get(name, "")), (
                    flavor,
                    text,
                    name,
                )


def test_a_rule_for_some_versions_only_names_a_variable_some_catalog_has() -> None:
    catalogs = [
        catalog_for(flavor, parse_version(text))  # type: ignore[arg-type]
        for flavor, versions in CATALOG_SERIES.items()
        for text in versions
    ]
    for rule in SETTING_RULES:
        if rule.only_where_present:
            assert any(catalog.exists(rule.setting) for catalog in catalogs), rule.id
            assert not all(catalog.exists(rule.setting) for catalog in catalogs), rule.id


def test_the_contracts_minimum_settings_are_all_covered() -> None:
    required = {
        "innodb_io_capacity",
        "innodb_io_capacity_max",
        "innodb_read_io_threads",
        "innodb_write_io_threads",
        "innodb_flush_method",
        "innodb_redo_log_capacity",
        "innodb_read_ahead_threshold",
        "innodb_random_read_ahead",
        "innodb_max_dirty_pages_pct",
        "innodb_max_dirty_pages_pct_lwm",
        "innodb_buffer_pool_size",
        "innodb_flush_log_at_trx_commit",
        "sync_binlog",
        "innodb_flush_neighbors",
    }
    assert required <= {rule.setting for rule in SETTING_RULES}
    assert {rule.setting for rule in OS_RULES} == {
        "io_scheduler",
        "read_ahead_kb",
        "vm.swappiness",
        "transparent_hugepage",
        "numa_policy",
        "mount_options",
    }


def test_every_case_has_a_one_line_reason_and_an_explanation() -> None:
    # Whether the templates fill from their facts is checked by running them: the property
    # tests drive every rule through the engine, where a missing fact raises KeyError.
    for rule in all_rules():
        for case in rule.cases.values():
            assert case.reason
            assert case.explanation
            assert "\n" not in case.reason
