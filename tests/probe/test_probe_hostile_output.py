"""Whatever a vendor tool, a client or /proc prints, the probe's readers return a value, never
raise: the probe ends with a message, not a traceback. The readers are taken from the real file
(tests/probe/run.py load_probe)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.probe.run import load_probe

WORDS = ["Property", "Value", "RAID", "Fault Tolerance:", "Segment 0 : Present", "----------"]
TOOLISH = st.lists(
    st.one_of(st.sampled_from(WORDS), st.text(alphabet="abcXYZ019 :=-|/+%\t\n", max_size=8)),
    max_size=60,
).map("".join)

PROBE_MODULE = load_probe()


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
    assert len(p.advisor_rows(text).encode()) <= p.V.MAX_CURRENT_TEXT_BYTES


def test_an_oversized_variables_text_is_cut_to_the_apis_limit() -> None:
    p = PROBE_MODULE
    row = "innodb_io_capacity\t" + "2" * 1000 + "\n" + "x_other_variable\t" + "y" * 1000 + "\n"
    text = row * 2000  # about 4 MB, 2 MB of it rows the advisor reads
    cut = p.advisor_rows(text)
    assert len(cut.encode()) <= p.V.MAX_CURRENT_TEXT_BYTES
    assert cut.startswith("innodb_io_capacity\t2222")
    assert "x_other_variable" not in cut
