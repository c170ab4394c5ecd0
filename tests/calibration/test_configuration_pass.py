"""The estimator's one model pass over a machine's configurations (calibration.config_rows.
configuration_arrays broadcast against every parameter vector) gives each configuration the
numbers the same model gives it alone."""

import dataclasses
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.artifact import load_latest
from calibration.config_rows import ConfigRow, configuration_arrays, profile_rows
from calibration.features import KINDS, Situation, situation_of_profile
from calibration.model import predict_rows
from rules.inputs.examples import flash, hdd, network, raw_profile
from rules.inputs.validation import parse_profile

CALIBRATION = load_latest()
assert CALIBRATION is not None
PARAMS = np.vstack([CALIBRATION.params, *CALIBRATION.loso_params.values()])
STORAGES = [hdd(8, "raid10", rpm=15000, cache="write_back_bbu"), flash("nvme"), network()]
SERVERS = [
    {"server.version": "8.0.36"},
    {"server.version": "8.4.3"},
    {"server.flavor": "mariadb", "server.version": "10.6"},
]
MACHINES = [
    situation_of_profile(
        parse_profile(raw_profile(**storage, **server, **{"workload.kind": kind})),
        {},
        year=2026,
    )
    for storage in STORAGES
    for server in SERVERS
    for kind in KINDS
]
CONFIG_VALUES = {
    "innodb_buffer_pool_size": st.integers(2**27, 2**40),
    "innodb_flush_log_at_trx_commit": st.sampled_from([0, 1, 2]),
    "innodb_flush_method": st.sampled_from(["O_DIRECT", "O_DIRECT_NO_FSYNC", "fsync"]),
    "innodb_max_dirty_pages_pct": st.floats(0, 99),
    "innodb_doublewrite": st.sampled_from(["ON", "OFF"]),
    "sync_binlog": st.sampled_from([0, 1]),
    "innodb_redo_log_capacity": st.integers(2**23, 2**37),
    "innodb_log_file_size": st.integers(2**22, 2**33),
    "innodb_io_capacity_max": st.integers(100, 40000),
    "innodb_io_capacity": st.integers(100, 20000),
    "innodb_change_buffering": st.sampled_from(["none", "all"]),
    "io_scheduler": st.sampled_from(["none", "cfq"]),
}
# Rows no profile gives, down to the edges: a tiny or NaN redo (write_combining's np.where),
# no syncs at commit, the change buffer and doublewrite mixed across configurations.
ROW_VALUES = st.tuples(
    st.sampled_from([100.0, 5000.0, 1e6]),
    st.sampled_from([0.0, 1e-6, 0.05, 0.5, 0.99, 1.0, 3.0]),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([1.0, 0.43, 0.87]),
    st.sampled_from([90.0, 50.0, 1e-9, 0.0]),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([math.inf, 96.0, 2048.0, 1e-12, 0.0, math.nan]),
    st.sampled_from([2000.0, 400.0, math.inf]),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([200.0, 10000.0, 1e-9, math.inf]),  # io_capacity: merges of a full buffer
)


def assert_each_as_alone(machine: Situation, rows: list[ConfigRow]) -> None:
    logs, binding = predict_rows(PARAMS, configuration_arrays(machine, rows))
    assert logs.shape == (len(PARAMS), len(rows))
    for i, row in enumerate(rows):
        alone, named = predict_rows(PARAMS, configuration_arrays(machine, [row]))
        np.testing.assert_allclose(logs[:, i], alone[:, 0], rtol=1e-13, atol=0)
        assert binding[i] == named[0]


@settings(max_examples=60, deadline=None)
@given(
    raw=st.sampled_from([raw_profile(**s, **v) for s in STORAGES for v in SERVERS]),
    kind=st.sampled_from(KINDS),
    configs=st.lists(st.fixed_dictionaries({}, optional=CONFIG_VALUES), min_size=1, max_size=18),
)
def test_each_of_a_profiles_configurations_gets_its_own_numbers(raw, kind, configs) -> None:
    profile = parse_profile({**raw, "workload": {**raw["workload"], "kind": kind}})
    machine, rows = profile_rows(profile, configs, year=2026)
    assert_each_as_alone(machine, rows)


@settings(max_examples=100, deadline=None)
@given(
    machine=st.sampled_from(MACHINES),
    access=st.sampled_from([0.0, 1.0, 2.0]),
    data_gb=st.sampled_from([0.001, 3.0, 200.0, 1e4]),
    concurrency=st.sampled_from([1.0, 16.0, 1000.0]),
    update_test=st.sampled_from([0.0, 1.0, 2.0]),
    rows=st.lists(ROW_VALUES, min_size=1, max_size=18),
)
def test_each_configuration_gets_its_own_numbers_at_the_edges(
    machine, access, data_gb, concurrency, update_test, rows
) -> None:
    edge = dataclasses.replace(
        machine, access=access, data_gb=data_gb, concurrency=concurrency, update_test=update_test
    )
    assert_each_as_alone(edge, rows)


def test_one_parameter_vector_gives_the_first_row_of_many() -> None:
    machine = MACHINES[0]
    rows = [
        (5000.0, 0.1 * (i + 1), 1.0, 1.0, 90.0, 1.0, 0.0, 2048.0, 2000.0, 1.0, 200.0)
        for i in range(5)
    ]
    x = configuration_arrays(machine, rows)
    many, names = predict_rows(PARAMS, x)
    one, named = predict_rows(PARAMS[0], x)
    np.testing.assert_array_equal(one[0], many[0])
    assert named == names
