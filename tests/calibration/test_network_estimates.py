"""Network volumes in the estimate: the provisioned rate and the volume's round trip map onto the
model's existing features (no new parameter, no refit)."""

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calibration.features import situation_of_profile
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile
from rules.machine.volumes import NETWORK_READ_LATENCY_S
from tests.calibration.test_estimator import midpoint, non_decreasing

FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
IOPS_LADDER = (100, 500, 3_000, 10_000, 40_000, 160_000)


def _network(iops: int | None, **extra: Any) -> dict[str, Any]:
    storage = {"media": "network_ssd", "device_count": 1, "raid_level": "none", **extra}
    if iops is not None:
        storage["provisioned_iops"] = iops
    return storage


@FEW
@given(
    kind=st.sampled_from(["oltp", "read_write", "update_heavy", "bulk_insert", "read_mostly"]),
    data=st.sampled_from([20, 200, 2000]),
    concurrency=st.sampled_from([1, 16, 256]),
    volume=st.sampled_from([None, "aws_io2", "gcp_pd_ssd", "san"]),
)
def test_more_provisioned_iops_never_lower_the_estimate(kind, data, concurrency, volume) -> None:
    extra = {"volume_type": volume} if volume else {}
    values = [
        midpoint(
            raw_profile(
                **{
                    "hardware.storage": _network(iops, **extra),
                    "workload.kind": kind,
                    "workload.data_size_gb": data,
                    "workload.concurrency": concurrency,
                }
            ),
            innodb_buffer_pool_size=2**30,
        )
        for iops in IOPS_LADDER
    ]
    assert non_decreasing(values), values


def test_a_network_volume_reads_at_its_round_trip_and_its_provisioned_rate() -> None:
    profile = parse_profile(raw_profile(**{"hardware.storage": _network(7_000)}))
    situation = situation_of_profile(profile, {}, year=2026)
    assert situation.read_latency_s == NETWORK_READ_LATENCY_S
    assert situation.read_iops == 7_000
    assert situation.write_iops == 7_000


def test_the_throughput_cap_reaches_the_estimate() -> None:
    open_rate = raw_profile(**{"hardware.storage": _network(20_000)})
    capped = raw_profile(**{"hardware.storage": _network(20_000, provisioned_mbps=20)})
    pool = 2**30
    assert midpoint(capped, innodb_buffer_pool_size=pool) <= midpoint(
        open_rate, innodb_buffer_pool_size=pool
    )
    capped_situation = situation_of_profile(parse_profile(capped), {}, year=2026)
    assert capped_situation.read_iops < 20_000
