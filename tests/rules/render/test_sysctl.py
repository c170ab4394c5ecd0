import dataclasses

from rules.reference.bibliography import source
from rules.render.sysctl import NOTHING_TO_PERSIST, render_sysctl
from tests.rules.engine_helpers import result_for
from tests.rules.render.fixtures import SOURCE_A, mysql80_result, refused_result


def test_it_tells_how_to_install_the_file() -> None:
    text = render_sysctl(mysql80_result(), base_url="https://advisor.example")
    assert text.startswith("# InnoDB IO Advisor: kernel settings for a dedicated database host\n")
    assert "# Install: copy this file to /etc/sysctl.d/60-innodb-io-advisor.conf" in text
    assert "#   sysctl --system\n" in text
    assert "# Permalink: https://advisor.example/r/7f3c0a1b2c3d4e5f/\n" in text


def test_each_setting_follows_its_reason_and_sources() -> None:
    text = render_sysctl(mysql80_result())
    assert text.endswith(
        f"\n# vm.swappiness: 1\n# Source: {source(SOURCE_A).citation()}\nvm.swappiness = 1\n"
    )


def test_it_leaves_out_udev_and_other_files() -> None:
    text = render_sysctl(mysql80_result())
    assert "scheduler" not in text
    assert "read_ahead_kb" not in text


def test_the_engines_file_holds_the_three_memory_settings_with_reasons() -> None:
    text = render_sysctl(result_for())
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert lines == ["vm.swappiness = 1", "vm.dirty_background_ratio = 3", "vm.dirty_ratio = 15"]
    assert "# vm.swappiness: swap only to avoid running out of memory" in text
    assert "transparent_hugepage" not in text  # its tmpfiles.d file is not a sysctl file


def test_it_says_so_when_there_is_nothing_to_set() -> None:
    text = render_sysctl(dataclasses.replace(refused_result(), os=()))
    assert text.endswith(f"\n# {NOTHING_TO_PERSIST}\n")


def test_it_is_byte_identical_for_identical_input() -> None:
    assert render_sysctl(result_for()) == render_sysctl(result_for())
