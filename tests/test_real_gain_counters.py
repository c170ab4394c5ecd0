"""benchmarks/real_gain.py's run diagnostics: CPU shares from /proc/stat and InnoDB's counters
per transaction, which name the bottleneck a measured run hit."""

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "real_gain.py"
_SPEC = importlib.util.spec_from_file_location("real_gain", _PATH)
assert _SPEC is not None
assert _SPEC.loader is not None
real_gain = importlib.util.module_from_spec(_SPEC)
sys.modules["real_gain"] = real_gain  # its dataclasses look their module up by name
_SPEC.loader.exec_module(real_gain)

# proc(5): cpu  user nice system idle iowait irq softirq steal guest guest_nice
_BEFORE = "cpu  1000 0 500 8000 100 0 50 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n"
_AFTER = "cpu  1600 0 800 8200 300 0 100 0 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n"


def test_cpu_times_reads_the_machine_line_only() -> None:
    times = real_gain.cpu_times(_BEFORE)
    assert (times["user"], times["idle"], times["steal"]) == (1000, 8000, 0)
    assert set(times) == set(real_gain.CPU_FIELDS)


def test_cpu_shares_split_the_interval() -> None:
    shares = real_gain.cpu_shares(real_gain.cpu_times(_BEFORE), real_gain.cpu_times(_AFTER))
    # 1,200 ticks in all: 950 busy (600 user + 300 system + 50 softirq), 200 iowait, 200 idle
    assert shares == {"busy": round(950 / 1350, 3), "iowait": round(200 / 1350, 3),
                      "idle": round(200 / 1350, 3), "steal": 0.0}  # fmt: skip
    assert abs(sum(shares.values()) - 1.0) < 0.002


def test_cpu_shares_of_an_empty_interval_are_zero_not_an_error() -> None:
    times = real_gain.cpu_times(_BEFORE)
    assert set(real_gain.cpu_shares(times, times).values()) == {0.0}


def test_status_counters_parse_with_or_without_a_header() -> None:
    text = (
        "Variable_name\tValue\nInnodb_buffer_pool_reads\t1200\nInnodb_data_fsyncs\t30\nOther\t5\n"
    )
    assert real_gain.parse_status(text) == {
        "Innodb_buffer_pool_reads": 1200,
        "Innodb_data_fsyncs": 30,
    }


def test_per_transaction_divides_each_increase() -> None:
    before = {"Innodb_buffer_pool_reads": 1000, "Innodb_data_fsyncs": 10}
    after = {"Innodb_buffer_pool_reads": 4000, "Innodb_data_fsyncs": 160}
    counts = real_gain.per_transaction(before, after, 100.0)
    assert (counts["page_reads"], counts["fsyncs"]) == (30.0, 1.5)
    assert counts["pages_flushed"] == 0.0  # a counter neither snapshot has


def test_the_measured_cpu_rate_is_the_median_of_the_point_select_runs() -> None:
    def sample(qps: float):
        return real_gain.PointSelects(qps, {"busy": 1.0}, 0.0)

    samples = [sample(81_000), sample(69_000), sample(87_000)]
    assert real_gain.median_qps(samples) == 81_000
    assert real_gain.median_qps(samples[:2]) == 75_000
