"""Whatever a vendor tool, a client or /proc prints, the probe's readers return a value, never
raise: the probe ends with a message, not a traceback. The readers are taken from the real file
(loaded by path: the probe is a script, not a package)."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.probe.run import PROBE

WORDS = ["Property", "Value", "RAID", "Fault Tolerance:", "Segment 0 : Present", "----------"]
TOOLISH = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(alphabet="abcXYZ019 :=-|/+%\t\n", max_size=8)),
    max_size=60,
).map("".join)


def _probe() -> ModuleType:
    spec = importlib.util.spec_from_file_location("advisor_probe_under_test", PROBE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PROBE_MODULE = _probe()


@settings(max_examples=200, deadline=None)
@given(show=TOOLISH, battery=TOOLISH, other=st.text(max_size=400))
def test_the_vendor_readers_never_raise(show: str, battery: str, other: str) -> None:
    p = PROBE_MODULE
    for info in (
        p.parse_storcli(show, battery),
        p.parse_megacli(other + show, battery),
        p.parse_ssacli(other + show),
        p.parse_arcconf(other + show),
    ):
        assert isinstance(info, dict)
        if info:
            p.controller_cache(info)  # the profile's cache value from whatever was read


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=600))
def test_the_server_and_mount_readers_never_raise(text: str) -> None:
    p = PROBE_MODULE
    variables = p.parse_variables(text)
    assert all(len(name) <= 64 for name in variables)
    p.flavor_of(variables)
    assert len(p.bounded_show_variables(text).encode()) <= p.V.MAX_CURRENT_TEXT_BYTES


def test_an_oversized_variables_text_is_cut_to_the_apis_limit() -> None:
    p = PROBE_MODULE
    row = "innodb_io_capacity\t200\n" + "x_other_variable\t" + "y" * 1000 + "\n"
    text = row * 2000  # about 2 MB
    cut = p.bounded_show_variables(text)
    assert len(cut.encode()) <= p.V.MAX_CURRENT_TEXT_BYTES
    assert "innodb_io_capacity\t200" in cut
    assert "x_other_variable" not in cut
