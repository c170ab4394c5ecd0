"""benchmarks/statement_costs.py's arithmetic: the binary log's factor on a transaction's CPU,
each server's figures over its own point select, medians over rounds."""

import math

from benchmarks.statement_costs import binlog_ratios, medians

# (tps, server CPU us per transaction) per round; the "on" server is 10% slower at everything
# and its read_write costs 8% more on top, its update_non_index 20% more.
_OFF = {
    "oltp_point_select": [(1.0, 12.0), (1.0, 10.0), (1.0, 11.0)],
    "oltp_read_write": [(1.0, 500.0), (1.0, 999.0), (1.0, 440.0)],
    "oltp_update_index": [(1.0, 44.0)],
    "oltp_update_non_index": [(1.0, 33.0)],
}
_ON = {
    "oltp_point_select": [(1.0, 12.1)],
    "oltp_read_write": [(1.0, 11.0 * 1.1 * 1.08 * 500 / 11.0)],
    "oltp_update_index": [(1.0, 44.0 * 1.1)],
    "oltp_update_non_index": [(1.0, 33.0 * 1.1 * 1.2)],
}


def test_medians_take_the_middle_round_not_the_mean() -> None:
    assert medians(_OFF)["oltp_read_write"] == 500.0
    assert medians(_OFF)["oltp_point_select"] == 11.0


def test_the_binary_logs_factor_is_net_of_each_servers_own_speed() -> None:
    ratios = binlog_ratios(_OFF, _ON)
    assert set(ratios) == {"oltp_read_write", "oltp_update_index", "oltp_update_non_index"}
    assert math.isclose(ratios["oltp_read_write"], 1.08)
    assert math.isclose(ratios["oltp_update_index"], 1.0)
    assert math.isclose(ratios["oltp_update_non_index"], 1.2)
