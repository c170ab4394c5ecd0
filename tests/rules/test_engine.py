import pytest

from rules.engine import RULESET_VERSION, _fill, recommend
from rules.inputs.examples import hdd, profile, raw_profile
from rules.inputs.validation import parse_profile
from rules.output.result import Change
from tests.rules.engine_helpers import result_for


def test_every_setting_carries_a_reason_an_explanation_and_evidence() -> None:
    result = result_for()
    assert len(result.settings) >= 14
    for setting in result.settings:
        assert setting.reason
        assert len(setting.explanation) > 80
        assert setting.evidence


def test_identical_inputs_share_an_id_and_different_inputs_do_not() -> None:
    first, second = result_for(), result_for()
    assert first.id == second.id
    assert first.permalink == f"/r/{first.id}/"
    assert result_for(**{"hardware.ram_gb": 32}).id != first.id
    assert first.ruleset_version == RULESET_VERSION


def test_it_shows_the_change_from_a_pasted_mycnf() -> None:
    mycnf = (
        "[mysqld]\ninnodb_io_capacity=200\ninnodb-buffer-pool-size=1G\n"
        "loose-innodb_flush_neighbors=1\n"
    )
    result = result_for(current={"mycnf": mycnf})
    capacity = result.setting("innodb_io_capacity")
    pool = result.setting("innodb_buffer_pool_size")
    neighbors = result.setting("innodb_flush_neighbors")
    assert capacity is not None
    assert pool is not None
    assert neighbors is not None
    assert (capacity.current, capacity.change) == ("200", Change.RAISE)
    assert (pool.current, pool.change) == ("1G", Change.RAISE)
    assert neighbors.change is Change.KEEP


def test_settings_missing_from_the_paste_compare_with_the_server_default() -> None:
    result = result_for(current={"mycnf": "[mysqld]\ninnodb_io_capacity=200\n"})
    dirty = result.setting("innodb_max_dirty_pages_pct")
    assert dirty is not None
    assert dirty.current_is_default
    assert dirty.current == "90"
    assert dirty.change is Change.KEEP


def test_it_reads_show_global_variables_output() -> None:
    text = "innodb_flush_method\tfsync\ninnodb_io_capacity\t200\n"
    result = result_for(current={"show_variables": text, "os": {"io_scheduler": "[cfq] noop"}})
    method = result.setting("innodb_flush_method")
    assert method is not None
    assert (method.current, method.change) == ("fsync", Change.CHANGE)
    (scheduler,) = [item for item in result.os if item.name == "io_scheduler"]
    assert scheduler.current == "cfq"
    assert scheduler.change is Change.CHANGE


def test_it_warns_about_an_unprotected_write_back_cache() -> None:
    result = result_for(**hdd(4, "raid10", cache="write_back"))
    assert any("without battery" in w for w in result.warnings)
    method = result.setting("innodb_flush_method")
    assert method is not None
    assert method.value == "O_DIRECT"


@pytest.mark.parametrize(
    ("flavor", "version"),
    [
        ("mysql", "5.0.77"),
        ("mysql", "5.6.51"),
        ("mariadb", "10.3"),
        ("mariadb", "10.8"),
        ("mariadb", "12.2"),  # real, newer than the catalog knows
    ],
)
def test_it_accepts_unsupported_versions_for_estimates_but_refuses_output(flavor, version):
    result = recommend(
        parse_profile(raw_profile(**{"server.flavor": flavor, "server.version": version}))
    )
    assert result.output_refused is not None
    assert "supported range" in result.output_refused
    assert result.output_refused in result.warnings
    assert result.settings


@pytest.mark.parametrize(
    ("flavor", "version"),
    [
        ("mysql", "5.7.44"),
        ("mysql", "9.1.0"),
        ("percona", "8.4"),
        ("mariadb", "10.6.18"),
        ("mariadb", "11.8"),
    ],
)
def test_it_writes_output_for_supported_versions(flavor, version) -> None:
    result = recommend(profile(**{"server.flavor": flavor, "server.version": version}))
    assert result.output_refused is None


def test_it_warns_that_consumer_flash_lacks_power_loss_protection() -> None:
    consumer = {
        "hardware.storage": {
            "media": "sata_ssd",
            "device_count": 1,
            "raid_level": "none",
            "flash_class": "consumer",
        }
    }
    assert any("power-loss protection" in w for w in result_for(**consumer).warnings)
    consumer["hardware.storage"]["flash_class"] = "enterprise"
    assert not any("power-loss protection" in w for w in result_for(**consumer).warnings)


@pytest.mark.parametrize(
    ("template", "facts"),
    [
        ("{a} and {b}{a}", {"a": 1.5, "b": Change.RAISE}),
        ("no fields, {{braces}}", {}),
        ("{a:,} {b!r} {c[0]}", {"a": 12345, "b": "x", "c": ["y"]}),  # beyond {name}
        ("{a}", {"a": None}),
    ],
)
def test_a_text_fills_as_str_format_map_would(template: str, facts: dict[str, object]) -> None:
    assert _fill(template, facts) == template.format_map(facts)


def test_a_missing_fact_is_the_key_error_str_format_map_raises() -> None:
    with pytest.raises(KeyError):
        _fill("{absent}", {})
