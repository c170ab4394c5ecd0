"""Cloud volume sizes and device figures (issue 41, item 5): gp2, pd-balanced and pd-ssd IOPS
grow with the volume's size up to the instance's caps; consumer NVMe sustains its own write
rate; a fio write rate is not called a commit rate."""

from rules.engine import recommend
from rules.inputs.examples import flash, network, parse_or_errors, profile, raw_profile
from rules.machine.storage import array_capability


def _volume(volume_type: str, data_gb: float, size_gb: float | None = None, count: int = 1):  # type: ignore[no-untyped-def]
    level = "none" if count == 1 else "raid0"
    extra = {"hardware.storage.volume_size_gb": size_gb} if size_gb is not None else {}
    p = profile(
        **network(count, level, volume_type=volume_type),
        **extra,
        **{"workload.data_size_gb": data_gb},
    )
    return array_capability(p.hardware.storage, p.workload.data_size_gb)


def test_a_3_tb_pd_ssd_is_not_6000_iops() -> None:
    # 6,000 baseline + 30 per GiB x 3,000 GiB = 96,000, below the 100,000 instance cap
    cap = _volume("gcp_pd_ssd", 200, size_gb=3_000)
    assert cap.volume is not None
    assert cap.volume.given_iops == 96_000
    assert cap.random_write_iops > 6_000


def test_a_larger_pd_ssd_stops_at_the_instance_cap_and_says_so() -> None:
    cap = _volume("gcp_pd_ssd", 200, size_gb=10_000)
    assert cap.volume is not None
    assert cap.volume.given_iops == 100_000
    assert "instance's 100,000 IOPS" in cap.summary


def test_pd_balanced_and_gp2_grow_with_size() -> None:
    assert _volume("gcp_pd_balanced", 10, size_gb=1_000).volume.given_iops == 9_000  # type: ignore[union-attr]
    assert _volume("aws_gp2", 10, size_gb=2_000).volume.given_iops == 6_000  # type: ignore[union-attr]
    assert _volume("aws_gp2", 10, size_gb=10).volume.given_iops == 100  # the least gp2 gives  # type: ignore[union-attr]
    assert _volume("aws_gp2", 10, size_gb=16_000).volume.given_iops == 16_000  # type: ignore[union-attr]


def test_without_a_size_the_volume_holds_the_data_and_the_summary_says_it_was_assumed() -> None:
    cap = _volume("aws_gp2", 3_000)
    assert cap.volume is not None
    assert cap.volume.given_iops == 9_000
    assert "the data's size; none given" in cap.summary


def test_striped_volumes_share_the_data_and_the_instance_caps() -> None:
    cap = _volume("gcp_pd_ssd", 20_000, count=4)  # 5,000 GiB each: 150,000 + 1,500 each
    assert cap.volume is not None
    assert cap.volume.given_iops == 25_000  # the instance's 100,000 over four volumes
    # and the instance's 1,200 MiB/s lets 76,800 pages of 16 KiB a second through
    assert cap.random_write_iops == 76_800


def test_io_capacity_follows_the_size() -> None:
    small = recommend(profile(**network(volume_type="gcp_pd_ssd"), **{"workload.data_size_gb": 50}))
    big = recommend(
        profile(
            **network(volume_type="gcp_pd_ssd"),
            **{"workload.data_size_gb": 50, "hardware.storage.volume_size_gb": 3_000},
        )
    )
    assert int(big.setting("innodb_io_capacity").value) > int(  # type: ignore[union-attr]
        small.setting("innodb_io_capacity").value  # type: ignore[union-attr]
    )


def test_volume_size_is_refused_on_local_media_naming_the_field() -> None:
    _, errors = parse_or_errors(raw_profile(**{"hardware.storage.volume_size_gb": 500}))
    assert "hardware.storage.volume_size_gb" in errors


def test_consumer_nvme_sustains_its_own_write_rate_not_the_enterprise_one() -> None:
    consumer = profile(**flash("nvme"), **{"hardware.storage.flash_class": "consumer"})
    enterprise = profile(**flash("nvme"))
    c = array_capability(consumer.hardware.storage)
    e = array_capability(enterprise.hardware.storage)
    assert c.random_write_iops == 18_000
    assert c.random_write_iops < e.random_write_iops / 5


def test_a_fio_write_rate_is_not_called_a_commit_rate() -> None:
    p = profile(
        **flash("nvme"),
        **{"hardware.storage.measured_iops": {"random_read": 50_000, "random_write": 40_000}},
    )
    summary = array_capability(p.hardware.storage).summary
    assert "commits are not measured" in summary
    assert "commits/s (as measured with fio)" not in summary
