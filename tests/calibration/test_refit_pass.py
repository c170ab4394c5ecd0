"""The estimator's pass over the refits must give model.predict_rows' numbers bit for bit: it
is the same model, computed with fewer numpy calls."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.artifact import load_latest
from calibration.config_rows import ConfigRow, column_of, profile_rows
from calibration.features import (
    KINDS,
    Situation,
    as_arrays,
    situation_of_profile,
)
from calibration.model import TERMS, capacities, predict_rows
from calibration.refit_pass import RefitPass
from rules.validation import parse_profile
from tests.rules.profiles import flash, hdd, network, raw_profile

CALIBRATION = load_latest()
assert CALIBRATION is not None
PARAMS = np.vstack([CALIBRATION.params, *CALIBRATION.loso_params.values()])
PASS = RefitPass(PARAMS, width=16)
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
COLUMNS = tuple(as_arrays(MACHINES[:1]))
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
# Situations no profile gives, down to the edges: a tiny or NaN redo (write_combining's
# np.where), no syncs at commit, the change buffer and doublewrite mixed across configurations.
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


def assert_same_as_the_model(machine: Situation, rows: list[ConfigRow]) -> None:
    x = {c: np.array([column_of(machine, row, c) for row in rows]) for c in COLUMNS}
    with np.errstate(all="ignore"):
        want, want_binding = predict_rows(PARAMS, x)
        want_terms = np.stack(capacities(PARAMS, x)[:TERMS])
    np.testing.assert_array_equal(PASS.capacities(machine, rows), want_terms.transpose(0, 2, 1))
    logs, binding = PASS.run(machine, rows)
    assert binding == want_binding
    np.testing.assert_array_equal(logs.T, want, strict=True)


@settings(max_examples=80, deadline=None)
@given(
    raw=st.sampled_from([raw_profile(**s, **v) for s in STORAGES for v in SERVERS]),
    kind=st.sampled_from(KINDS),
    configs=st.lists(st.fixed_dictionaries({}, optional=CONFIG_VALUES), min_size=1, max_size=18),
)
def test_it_gives_the_models_numbers_for_a_profiles_configurations(raw, kind, configs) -> None:
    profile = parse_profile({**raw, "workload": {**raw["workload"], "kind": kind}})
    machine, rows = profile_rows(profile, configs, year=2026)
    assert_same_as_the_model(machine, rows)


@settings(max_examples=150, deadline=None)
@given(
    machine=st.sampled_from(MACHINES),
    access=st.sampled_from([0.0, 1.0, 2.0]),
    data_gb=st.sampled_from([0.001, 3.0, 200.0, 1e4]),
    concurrency=st.sampled_from([1.0, 16.0, 1000.0]),
    update_test=st.sampled_from([0.0, 1.0, 2.0]),
    rows=st.lists(ROW_VALUES, min_size=1, max_size=18),
)
def test_it_gives_the_models_numbers_at_the_edges(
    machine, access, data_gb, concurrency, update_test, rows
) -> None:
    edge = dataclasses.replace(
        machine,
        access=access,
        data_gb=data_gb,
        concurrency=concurrency,
        update_test=update_test,
    )
    assert_same_as_the_model(edge, rows)


@pytest.mark.parametrize("count", [1, 16, 17, 40])
def test_more_configurations_than_its_width_spread_the_vectors_again(count) -> None:
    rows = [
        (5000.0, 0.1 * (i + 1), 1.0, 1.0, 90.0, 1.0, 0.0, 2048.0, 2000.0, 1.0, 200.0)
        for i in range(count)
    ]
    assert_same_as_the_model(MACHINES[0], rows)


def test_a_repeated_configuration_gets_the_bits_of_its_first() -> None:
    base = (5000.0, 0.1, 1.0, 1.0, 90.0, 1.0, 0.0, 2048.0, 2000.0, 1.0, 200.0)
    other = (5000.0, 0.4, 1.0, 1.0, 90.0, 1.0, 0.0, 2048.0, 2000.0, 1.0, 200.0)
    signed = (5000.0, 0.1, 1.0, 1.0, 90.0, 1.0, 0.0, 2048.0, 2000.0, 1.0, -0.0)
    rows = [base, other, base, signed, base]
    assert_same_as_the_model(MACHINES[0], rows)
    logs, binding = PASS.run(MACHINES[0], rows)
    np.testing.assert_array_equal(logs[2], logs[0], strict=True)
    assert binding[4] == binding[0]
