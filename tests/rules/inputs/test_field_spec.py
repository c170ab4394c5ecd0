"""The profile's declaration in rules.inputs.profile gives validation its sections and the echo its
shape."""

from rules.inputs.field_spec import input_fields, input_sections, optional_sections
from rules.inputs.profile import Profile, Storage


def test_the_sections_and_their_keys_come_from_the_dataclasses() -> None:
    assert input_sections(Profile) == {
        "": (
            "server",
            "hardware",
            "workload",
            "current",
            "options",
            "probe",
            "provenance",
            "undetected",
        ),
        "server": ("flavor", "version"),
        "hardware": (
            "ram_gb",
            "cpu_cores",
            "storage",
            "filesystem",
            "kernel",
            "numa_nodes",
            "memory_limit_gb",
            "cpu_limit",
            "measured_cpu",
        ),
        "hardware.storage": (
            "media",
            "rpm",
            "device_count",
            "raid_level",
            "controller_cache",
            "flash_class",
            "measured_iops",
            "volume_type",
            "provisioned_iops",
            "provisioned_mbps",
            "volume_size_gb",
        ),
        "hardware.storage.measured_iops": ("random_read", "random_write"),
        "hardware.measured_cpu": ("point_select_qps", "threads"),
        "workload": (
            "kind",
            "data_size_gb",
            "concurrency",
            "durability",
            "recovery_target_minutes",
            "measured_throughput",
            "lab_results",
        ),
        "options": ("include_defaults",),
        "probe": ("version",),
    }


def test_a_section_that_may_be_none_or_has_a_default_is_optional() -> None:
    assert optional_sections(Profile) == {
        "current",
        "hardware.measured_cpu",
        "hardware.storage.measured_iops",
        "options",
        "probe",
    }


def test_a_field_without_an_input_declaration_is_not_an_input() -> None:
    paths = {spec.path for spec in input_fields(Profile)}
    assert "server.version_text" not in paths
    assert "raw" not in paths
    assert {spec.path for spec in input_fields(Storage, "hardware.storage.")} <= paths
