import itertools

import numpy as np
import pytest

from calibration.benchmarks import (
    ACCESS_CODES,
    BENCHMARKS,
    CUSTOMER_DIRTIED,
    NURAND_DIRTIED,
    NURAND_WINDOWS,
    TPCC_RECENT_READS,
    UPDATE_TEST_CODES,
    UPDATE_TESTS,
)
from calibration.features import Situation, as_arrays
from calibration.fit import BOUNDS, prior_vector
from calibration.model import (
    CHANGE_BUFFER_MAX_SHARE,
    LAYOUT,
    PAGE_BYTES,
    busy_cores,
    capacities,
    commit_flushes,
    data_pool_share,
    miss_rate,
    predict_log,
    predict_with_bottleneck,
    write_combining,
)


def situation(**changes) -> Situation:
    base = {
        "kind": "oltp",
        "read_iops": 1600.0,
        "write_iops": 1440.0,
        "fsync_per_s": 5000.0,
        "pool_to_data": 0.25,
        "cores": 16.0,
        "concurrency": 64.0,
        "commit_syncs": True,
        "io_factor": 1.0,
        "dirty_pct": 90.0,
        "year": 2026.0,
        "read_latency_s": 0.005,
        "access": ACCESS_CODES["skewed"],
        "doublewrite": True,
    }
    return Situation(**{**base, **changes})


def predict(**changes) -> float:
    return float(np.exp(predict_log(prior_vector(), as_arrays([situation(**changes)]))[0]))


def read_capacity(**changes) -> float:
    return float(np.exp(capacities(prior_vector(), as_arrays([situation(**changes)]))[1][0]))


@pytest.mark.parametrize("access", ACCESS_CODES)
def test_the_miss_rate_falls_from_one_to_zero_as_the_pool_covers_the_data(access) -> None:
    shares = np.array([0.0, 0.005, 0.25, 0.5, 0.99, 1.0, 3.0])
    rates = miss_rate(shares, np.full(len(shares), ACCESS_CODES[access]))
    assert rates[0] == pytest.approx(1.0)
    assert list(rates) == sorted(rates, reverse=True)
    assert rates[5] == 0.0
    assert rates[6] == 0.0


def test_a_hot_set_misses_less_than_uniform_keys_for_the_same_pool() -> None:
    share = np.array([0.1])
    uniform, special, skewed = (
        float(miss_rate(share, np.array([ACCESS_CODES[a]]))[0])
        for a in ("uniform", "special", "skewed")
    )
    assert uniform == pytest.approx(0.9)
    assert special == pytest.approx(1 - (0.75 + 0.25 * 0.1))  # sysbench 0.4's 1%/75% draw
    assert skewed < uniform


def _nurand_draws(a: int, rows: int) -> np.ndarray:
    """Each row's share of NURand(a, 1, rows) draws (C = 0), counted here from scratch."""
    ids = np.arange(1, rows + 1)
    size = 1 << int(a | rows).bit_length()
    counts = np.zeros(size)
    for part in np.array_split(np.arange(a + 1), 16):
        counts += np.bincount((part[:, None] | ids[None, :]).ravel(), minlength=size)
    draws = np.bincount(counts.nonzero()[0] % rows, weights=counts[counts > 0], minlength=rows)
    return draws / draws.sum()


def _nurand_pages(a: int, rows: int, per_page: int) -> np.ndarray:
    """Each page's share of NURand(a, 1, rows) draws (C = 0)."""
    return _nurand_draws(a, rows).reshape(-1, per_page).sum(axis=1)


def _nurand_stock_pages() -> np.ndarray:
    """Each stock page's share of NURand(8191, 1, 100000) item draws, 50 rows a page."""
    return _nurand_pages(8191, 100000, 50)


def _lru_hits(pages: np.ndarray, cached: float) -> float:
    """Che's approximation: page i is cached with probability 1 - exp(-p_i T), T by bisection
    so that the cached pages sum to `cached`."""
    low, high = 0.0, 60.0
    for _ in range(100):
        log_t = (low + high) / 2
        if np.sum(-np.expm1(-pages * np.exp(log_t))) < cached:
            low = log_t
        else:
            high = log_t
    return float(np.sum(pages * -np.expm1(-pages * np.exp(low))))


def test_tpccs_nurand_curves_are_the_draw_counted_over_stock_pages() -> None:
    """The shipped tables against the NURand draw counted here: an LRU pool holding a tenth of
    the stock pages hits a third of the draws (the most drawn tenth take half of them), and a
    window of as many changes as pages dirties 41% of them (63% for a uniform draw)."""
    pages = _nurand_stock_pages()
    n = len(pages)
    hits = 1 - miss_rate(np.array([0.1, 0.5]), np.full(2, ACCESS_CODES["skewed"]))
    assert hits[0] == pytest.approx(_lru_hits(pages, 0.1 * n), abs=0.005)
    assert hits[1] == pytest.approx(_lru_hits(pages, 0.5 * n), abs=0.005)
    assert hits[0] < np.sort(pages)[::-1][: n // 10].sum() - 0.1  # below the oracle's
    for u in (0.1, 1.0, 10.0):
        shipped = np.interp(u, NURAND_WINDOWS, NURAND_DIRTIED)
        assert shipped == pytest.approx(np.mean(-np.expm1(-u * pages * n)), abs=0.002)
        assert shipped < -np.expm1(-u)


def test_the_customer_table_is_nurand_1023_counted_over_customer_pages() -> None:
    """Customer ids by NURand(1023, 1, 3000), 25 rows a page: a window of as many changes as
    pages dirties 46% of them, between the stock's 41% and a uniform draw's 63%."""
    pages = _nurand_pages(1023, 3000, 25)
    n = len(pages)
    for u in (0.1, 1.0, 10.0):
        shipped = np.interp(u, NURAND_WINDOWS, CUSTOMER_DIRTIED)
        assert shipped == pytest.approx(np.mean(-np.expm1(-u * pages * n)), abs=0.002)
    at_one = np.interp(1.0, NURAND_WINDOWS, CUSTOMER_DIRTIED)
    assert np.interp(1.0, NURAND_WINDOWS, NURAND_DIRTIED) < at_one < -np.expm1(-1.0)


def test_a_constant_drawn_per_thread_makes_sysbench_tpccs_stock_draw_nearly_uniform() -> None:
    """calibration.features._point_access: sysbench-tpcc adds a C of its own per thread, so 56
    threads' draws are the stock draw shifted 56 ways, which an LRU pool hits within 0.02 of
    a uniform draw; under one C, a pool of a tenth of the pages hits a third of the draws."""
    draws = _nurand_draws(8191, 100000)
    shifts = np.random.default_rng(56).integers(0, 8192, 56)
    mixed = np.mean([np.roll(draws, int(c)) for c in shifts], axis=0).reshape(-1, 50).sum(axis=1)
    one = draws.reshape(-1, 50).sum(axis=1)
    n = len(one)
    for share in (0.1, 0.45, 0.7):
        assert _lru_hits(mixed, share * n) == pytest.approx(share, abs=0.02)
    assert _lru_hits(one, 0.1 * n) > 0.3


def test_a_skewed_draw_rewrites_its_hot_pages_so_combines_more_writes() -> None:
    """tpcc's changes dirty fewer distinct pages than a uniform draw in the same window, so
    the checkpoint writes fewer pages per change; both write every change once the window is
    short, and the skewed share stays smooth (no step) as the window grows."""
    windows = np.geomspace(1e-3, 100.0, 60)
    x = {
        "data_gb": np.full(len(windows), 100.0),
        # redo holding `windows` x the data's pages of changes at e^6 bytes a change
        "redo_mb": windows * (100.0 * 1024.0**3 / PAGE_BYTES) * np.exp(6.0) / 1024.0**2,
        "dirty_pct": np.full(len(windows), 100.0),  # the dirty limit never binds
        "pool_to_data": np.full(len(windows), 1.0),
    }
    uniform = write_combining({**x, "access": np.zeros(len(windows))}, np.array(6.0))
    skewed = write_combining(
        {**x, "access": np.full(len(windows), ACCESS_CODES["skewed"])}, np.array(6.0)
    )
    assert np.all(skewed <= uniform + 1e-3)  # the table keeps 5 decimals
    assert skewed[0] == pytest.approx(1.0, abs=0.01)
    assert skewed[40] < 0.9 * uniform[40]  # a window of ~2.5x the pages: 0.32 against 0.37
    assert np.all(np.diff(skewed) <= 1e-9)


def test_a_skewed_draw_gains_fast_at_a_small_pool_and_slowly_after() -> None:
    """Concave, with no step: every published tpcc pool sweep rises smoothly."""
    shares = np.linspace(0.05, 0.95, 19)
    hits = 1 - miss_rate(shares, np.full(len(shares), ACCESS_CODES["skewed"]))
    gains = np.diff(hits)
    assert all(later <= earlier + 1e-9 for earlier, later in itertools.pairwise(gains))
    assert gains.max() < 3 * gains[0]


def test_reads_of_pages_drawn_lately_hit_once_the_pool_outlasts_a_pass_over_the_data() -> None:
    """tpcc's stock-level re-reads stock rows drawn by the district's last 20 orders, at most
    one pass of draws over the stock pages ago. Che's T passes at share s is the window of
    draws that fills the pool (NURAND_DIRTIED backwards): past s = 0.41 (T = 1) every such read
    hits; below, it hits when its age is under T or as any draw does."""
    skewed = ACCESS_CODES["skewed"]
    shares = np.linspace(0.0, 1.0, 41)
    plain = miss_rate(shares, np.full(41, skewed))
    recent = miss_rate(shares, np.full(41, skewed), 1.0)
    assert np.all(recent <= plain + 1e-12)
    assert recent[0] == plain[0] == 1.0
    assert recent[-1] == plain[-1] == 0.0
    assert np.all(recent[shares >= 0.41] == 0.0)
    assert plain[shares >= 0.41].max() > 0.1  # a plain draw still misses there
    # at a tenth of the data: T = 0.13 passes (the window that touches 10% of the pages)
    t = np.interp(0.1, NURAND_DIRTIED, NURAND_WINDOWS)
    assert 0.12 < t < 0.14
    tenth = miss_rate(np.array([0.1]), np.array([skewed]), 1.0)[0]
    assert tenth == pytest.approx((1 - t) * miss_rate(np.array([0.1]), np.array([skewed]))[0])
    # the uniform draw has no such pass in the model: unchanged
    uniform = np.zeros(41)
    assert np.array_equal(miss_rate(shares, uniform, 1.0), miss_rate(shares, uniform))


def test_only_tpcc_re_reads_recent_pages() -> None:
    """The oltp kind (tpcc) reads half its pages from recent orders; the other kinds none. With
    the reads' latency dominating the clients' time and no change buffer taking pool pages,
    the reads term follows 1 / miss, so going from 30% to 45% of the data in the pool gains
    tpcc more than a skewed read_write."""
    share = TPCC_RECENT_READS / BENCHMARKS["oltp"].reads
    assert share == pytest.approx(0.506, abs=0.001)
    skewed = np.full(2, ACCESS_CODES["skewed"])
    pools = np.array([0.3, 0.45])
    gains = {}
    for kind in ("oltp", "read_write"):
        reads = [
            read_capacity(kind=kind, pool_to_data=p, read_latency_s=10.0, change_buffer=False)
            for p in pools
        ]
        gains[kind] = reads[1] / reads[0]
    with_recent = miss_rate(pools, skewed, share)
    plain = miss_rate(pools, skewed)
    assert gains["oltp"] == pytest.approx(with_recent[0] / with_recent[1], rel=0.01)
    assert gains["read_write"] == pytest.approx(plain[0] / plain[1], rel=0.01)
    assert gains["oltp"] > 1.2 * gains["read_write"]


@pytest.mark.parametrize(
    ("field", "low", "high"),
    [
        ("read_iops", 200.0, 20000.0),
        ("write_iops", 200.0, 20000.0),
        ("fsync_per_s", 120.0, 9000.0),
        ("pool_to_data", 0.05, 0.9),
        ("cores", 2.0, 32.0),
        ("redo_mb", 96.0, 16384.0),
        ("io_capacity_max", 2000.0, 20000.0),
        ("dirty_pct", 10.0, 90.0),
    ],
)
def test_more_capacity_never_lowers_the_prediction(field, low, high) -> None:
    assert predict(**{field: high}) >= predict(**{field: low})


def test_commit_syncs_cost_throughput_only_when_they_happen() -> None:
    assert predict(commit_syncs=False, fsync_per_s=100.0) > predict(fsync_per_s=100.0)


def test_one_client_waits_for_its_own_flush_and_many_for_half_of_another_first() -> None:
    flushes = commit_flushes(np.array([1.0, 2.0, 20.0, 10_000.0]))
    assert flushes[0] == 1.0
    assert flushes[1] == pytest.approx(1.25)
    assert list(flushes) == sorted(flushes)
    assert flushes[-1] == pytest.approx(1.5, abs=1e-4)


@pytest.mark.parametrize("concurrency", [1.0, 16.0, 64.0])
def test_each_commit_sync_adds_its_flushes_to_every_clients_cycle(concurrency) -> None:
    """Cached updates on a BBU's fast sync: each client's cycle (Little's law: c clients finish
    c units per cycle) grows by the flushes its commit waits for, whether or not the device's
    sync rate binds, so trx_commit=1 costs throughput before it does (percona-2010-max-write:
    36% and 45%)."""
    cached = {"kind": "update_heavy", "pool_to_data": 2.0, "access": 0.0, "fsync_per_s": 5000.0,
              "concurrency": concurrency}  # fmt: skip
    cycle = concurrency / read_capacity(**cached)
    unsynced = concurrency / read_capacity(**cached, commit_syncs=False)
    flushes = float(commit_flushes(np.array([concurrency]))[0])
    assert cycle - unsynced == pytest.approx(flushes / 5000.0)
    assert predict(**cached) < predict(**cached, commit_syncs=False)


def test_clients_waiting_mostly_for_commit_flushes_are_named_commit_bound() -> None:
    """One client on a slow sync and nothing to read: its cycle is its commit's flush, and the
    binding term is named for it, not for random reads."""
    one = as_arrays([situation(kind="update_heavy", pool_to_data=2.0, concurrency=1.0,
                               fsync_per_s=100.0, access=0.0)])  # fmt: skip
    assert predict_with_bottleneck(prior_vector(), one)[1] == ["fsync/commit"]
    io_bound = as_arrays([situation(kind="update_heavy", pool_to_data=0.01, concurrency=1.0,
                                    fsync_per_s=100_000.0, access=0.0)])  # fmt: skip
    assert predict_with_bottleneck(prior_vector(), io_bound)[1] == ["random reads"]


def commit_capacity(**changes) -> float:
    return float(np.exp(capacities(prior_vector(), as_arrays([situation(**changes)]))[3][0]))


@pytest.mark.parametrize("binlog_sync", [False, True])
def test_a_workload_that_changes_nothing_syncs_nothing_at_commit(binlog_sync) -> None:
    """Point selects write no redo: the fsync rate caps a writing kind, never a read-only one,
    whatever trx_commit and sync_binlog say."""
    slow = {"fsync_per_s": 100.0, "commit_syncs": True, "binlog_sync": binlog_sync}
    assert commit_capacity(kind="read_mostly", **slow) == np.inf
    assert np.isfinite(commit_capacity(kind="update_heavy", **slow))
    cached = {"pool_to_data": 2.0, "concurrency": 8.0}
    assert predict(kind="read_mostly", **slow, **cached) == predict(
        kind="read_mostly", **{**slow, "commit_syncs": False, "binlog_sync": False}, **cached
    )


def test_the_binary_log_costs_cpu_only_where_the_kind_writes_row_events() -> None:
    """Point selects log nothing, so a MySQL server (binary log on by default) and a MariaDB
    one (off) do the same cached read-only work; a writing kind pays for its events."""
    cached = {"pool_to_data": 2.0, "concurrency": 16.0, "commit_syncs": False}
    assert predict(kind="read_mostly", binlog=True, **cached) == predict(
        kind="read_mostly", binlog=False, **cached
    )
    assert predict(kind="update_heavy", binlog=True, **cached) < predict(
        kind="update_heavy", binlog=False, **cached
    )


def cpu_capacity(**changes) -> float:
    return float(np.exp(capacities(prior_vector(), as_arrays([situation(**changes)]))[0][0]))


@pytest.mark.parametrize("pool_to_data", [2.0, 0.1])
def test_update_index_costs_more_than_update_non_index_and_the_average_lies_between(
    pool_to_data,
) -> None:
    """update_index changes a secondary index too: more CPU and more pages than
    update_non_index, cached or IO-bound; update_heavy without a named test is their average."""
    update = {"kind": "update_heavy", "pool_to_data": pool_to_data, "access": 0.0}
    index, average, non_index = (
        predict(**update, update_test=UPDATE_TEST_CODES[test])
        for test in ("index", "", "non_index")
    )
    assert index < average < non_index


def test_a_named_update_tests_cpu_follows_its_statement_count() -> None:
    cached = {"kind": "update_heavy", "pool_to_data": 2.0, "concurrency": 1.0}
    non_index = cpu_capacity(**cached, update_test=UPDATE_TEST_CODES["non_index"])
    index = cpu_capacity(**cached, update_test=UPDATE_TEST_CODES["index"])
    assert non_index / index == pytest.approx(
        UPDATE_TESTS[1].statements / UPDATE_TESTS[2].statements
    )


def test_a_slower_scheduler_lowers_the_io_bound_prediction() -> None:
    assert predict(io_factor=0.43) < predict(io_factor=1.0)


def test_doublewrite_on_never_raises_the_prediction() -> None:
    for pool in (0.02, 0.3, 0.9):
        assert predict(doublewrite=True, pool_to_data=pool) <= predict(
            doublewrite=False, pool_to_data=pool
        )


def test_few_clients_cannot_use_a_deep_device() -> None:
    """Little's law: one client waiting 5 ms per read gets at most 200 reads/s from an array
    that serves 1,600; 64 clients get nearly all of it."""
    one = read_capacity(concurrency=1.0)
    many = read_capacity(concurrency=64.0)
    assert many / one > 4
    kind = BENCHMARKS["oltp"]
    assert one <= 200.0 / kind.reads * kind.per_second / 0.1  # even at a tenth of the misses


def test_every_parameter_starts_inside_its_physical_bounds() -> None:
    prior = prior_vector()
    for name, (low, high) in BOUNDS.items():
        assert low <= prior[LAYOUT.index(name)] <= high, name


def combining(**changes) -> float:
    x = as_arrays([situation(**changes)])
    return float(write_combining(x, np.array([6.0]))[0])


def test_a_small_redo_writes_every_change_and_a_large_one_shares_writes() -> None:
    """1 GB of data is 65,536 pages; 1 MB of redo at ~400 bytes a change holds ~2,600
    changes (each one a write of its own), 64 GB holds ~170M, ~2,600 changes per page."""
    tiny = combining(redo_mb=1.0, data_gb=1.0, pool_to_data=2.0)
    huge = combining(redo_mb=65536.0, data_gb=1.0, pool_to_data=2.0)
    assert tiny > 0.95
    assert huge < 0.01
    assert combining(redo_mb=96.0, pool_to_data=2.0) > combining(redo_mb=2048.0, pool_to_data=2.0)


def test_the_dirty_page_limit_bounds_how_long_a_page_stays_dirty() -> None:
    loose = combining(redo_mb=65536.0, dirty_pct=90.0, pool_to_data=0.5)
    tight = combining(redo_mb=65536.0, dirty_pct=5.0, pool_to_data=0.5)
    assert tight > loose
    # A pool that holds the data at the limit lets every page stay dirty: only the redo binds.
    assert combining(redo_mb=65536.0, pool_to_data=2.0) == combining(
        redo_mb=65536.0, pool_to_data=3.0
    )


def test_a_low_io_capacity_binds_only_when_the_checkpoint_must_flush() -> None:
    """A big pool and a small redo leave the page cleaner the writes; a small pool evicts
    dirty pages itself, and io_capacity_max does not pace evictions (within 1%)."""
    checkpoint_bound = {"pool_to_data": 0.9, "redo_mb": 96.0, "kind": "update_heavy"}
    assert predict(io_capacity_max=200.0, **checkpoint_bound) < predict(
        io_capacity_max=20000.0, **checkpoint_bound
    )
    evicting = {"pool_to_data": 0.01, "redo_mb": 96.0, "kind": "update_heavy"}
    assert predict(io_capacity_max=200.0, **evicting) == pytest.approx(
        predict(io_capacity_max=20000.0, **evicting), rel=0.01
    )


def test_page_writes_take_device_time_from_reads() -> None:
    """Reads and writes share one device: doubling the pages written costs throughput even
    where reads take most of the device's time."""
    read_heavy = {"pool_to_data": 0.3, "write_iops": 20000.0, "read_iops": 1600.0}
    assert predict(doublewrite=True, **read_heavy) < predict(doublewrite=False, **read_heavy)


def test_the_bottleneck_names_writes_when_they_take_most_of_the_device() -> None:
    x = as_arrays(
        [
            situation(kind="update_heavy", write_iops=100.0, read_iops=100000.0, cores=64.0),
            situation(kind="read_mostly", write_iops=100.0, read_iops=1000.0, cores=64.0),
        ]
    )
    assert predict_with_bottleneck(prior_vector(), x)[1] == ["page writes", "random reads"]


def pool_share(kind: str, share: float, *, change_buffer: bool = True) -> float:
    x = as_arrays([situation(kind=kind, pool_to_data=share, change_buffer=change_buffer)])
    return float(data_pool_share(x, x["kind"].astype(int))[0])


def test_the_change_buffer_takes_at_most_a_quarter_of_the_pool_from_the_data() -> None:
    shares = [0.0, 0.1, 0.4, 0.6, 0.9, 0.99, 1.0, 2.0]
    held = [pool_share("oltp", s) for s in shares]
    assert held == sorted(held)  # more pool never leaves less of it to the data
    assert held[2] == pytest.approx(0.4 * (1 - CHANGE_BUFFER_MAX_SHARE))
    for share, value in zip(shares, held, strict=True):
        assert share * (1 - CHANGE_BUFFER_MAX_SHARE) - 1e-12 <= value <= share
    # it buffers changes only to pages outside the pool: no more than the data left out
    assert held[4] == pytest.approx(0.8)
    assert held[6] == 1.0
    assert held[7] == 2.0


def test_the_whole_pool_holds_data_where_nothing_is_buffered() -> None:
    assert pool_share("read_mostly", 0.4) == 0.4  # point selects change no index
    assert pool_share("oltp", 0.4, change_buffer=False) == 0.4  # MySQL 8.4, MariaDB 11


def test_a_change_buffer_lowers_a_write_workload_that_misses_the_pool() -> None:
    assert predict(pool_to_data=0.4, change_buffer=True) < predict(
        pool_to_data=0.4, change_buffer=False
    )
    assert predict(pool_to_data=1.5, change_buffer=True) == predict(
        pool_to_data=1.5, change_buffer=False
    )


def test_clients_keep_busy_as_many_cores_as_balls_fill_bins() -> None:
    """One client keeps one core busy on any machine; c clients never more than c or the
    cores; as many clients as cores about 63% of them; many clients nearly all."""
    cores = np.array([1.0, 2.0, 8.0, 48.0])
    assert busy_cores(np.ones(4), cores) == pytest.approx(np.ones(4))
    for clients in (2.0, 8.0, 64.0, 640.0):
        busy = busy_cores(np.full(4, clients), cores)
        assert np.all(busy <= np.minimum(clients, cores) + 1e-12)
        assert np.all(busy >= busy_cores(np.full(4, clients / 2), cores))
    assert busy_cores(np.array([48.0]), np.array([48.0]))[0] == pytest.approx(
        48 * (1 - np.exp(-1)), rel=0.02
    )
    assert busy_cores(np.array([640.0]), np.array([48.0]))[0] == pytest.approx(48.0, rel=1e-3)
    assert busy_cores(np.array([16.0]), np.array([2.0]))[0] == pytest.approx(2.0, rel=1e-4)


def test_a_full_change_buffer_makes_inserts_read_past_what_its_merges_absorb() -> None:
    """An insert load on data far beyond the pool: with io_capacity 200 the merges absorb
    little and the clients read their pages; with 20,000 every insert stays buffered, as
    before. A cached load has nothing to buffer, so io_capacity does not matter to it."""
    insert = {"kind": "bulk_insert", "concurrency": 1.0, "read_latency_s": 1e-4}
    io_bound = {**insert, "pool_to_data": 0.09, "data_gb": 114.0}
    slow = read_capacity(**io_bound, io_capacity=200.0)
    fast = read_capacity(**io_bound, io_capacity=20000.0)
    unlimited = read_capacity(**io_bound)
    assert slow < fast <= unlimited
    assert slow < 0.5 * unlimited
    cached = {**insert, "pool_to_data": 2.0, "data_gb": 4.0}
    assert read_capacity(**cached, io_capacity=200.0) == read_capacity(**cached)
    unbuffered = {**io_bound, "change_buffer": False}
    assert read_capacity(**unbuffered, io_capacity=200.0) == read_capacity(**unbuffered)
