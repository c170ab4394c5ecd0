"""What each reference benchmark asks of the storage, from the benchmark's own definition.

The IO side of the model is not a free constant per workload kind: it is the pages one unit of
the kind's reference benchmark reads and dirties when none of them is cached, counted from the
benchmark's transactions. The fit may only scale these counts within physical bounds
(calibration.fit.BOUNDS, `io_*`), so a kind whose data is thin still gets the right order of
magnitude, and a change of pool, media or doublewrite moves the estimate for the reason it does.

Counts are leaf pages (branch pages of a B-tree stay in the pool); a page is 16 KiB.
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BenchmarkIo:
    reads: float  # leaf pages read per unit when nothing is cached
    writes: float  # leaf pages dirtied per unit, each written back once when nothing is cached
    per_second: float  # units of the kind's reference unit per unit/s (60 for per-minute units)
    statements: float  # CPU work per unit, in primary-key point selects (see STATEMENT_COSTS)
    access: str  # how keys are drawn: "uniform" (every page alike) or "skewed" (a hot set)
    derivation: str


# TPC-C (tpcc-mysql, HammerDB), per new-order transaction. The mix is 45% new-order, 43% payment
# and 4% each of order-status, delivery and stock-level (tpc-c-spec-5-11, clause 5.2.3), so one
# new order brings 0.96 payments and 0.09 of each other kind. Cold leaf pages read per new order:
# 10 stock rows (clause 2.4.1), 1 customer; payment 0.96 x ~1.6 customer pages (60% by last name,
# through a secondary index); order-status 0.09 x ~13; delivery 0.09 x 10 districts x ~3 (order,
# its lines, customer); stock-level 0.09 x ~180 distinct stock rows of the last 20 orders: ~32.
# Dirtied: 10 stock, ~2.9 customer, ~1.8 order and order-line pages of deliveries: ~15. Items,
# warehouses, districts and the newest orders stay hot. Item and customer ids follow NURand
# (clause 2.1.6): a hot set, "skewed".
TPCC = BenchmarkIo(
    32.0, 15.0, 60.0, 130.0, "skewed", "tpc-c-spec-5-11 clauses 2.1.6, 2.4-2.8, 5.2.3"
)

# sysbench oltp_read_write (oltp_common.lua, sysbench 1.0): 10 point selects, 4 ranges of 100
# rows (~2 leaf pages each), an update on the indexed column k (a clustered page and the old
# and new secondary-index pages), an update on c (one page), a delete and an insert (the
# clustered page and a secondary page each): 10 + 8 + 3 + 1 + 2 + 2 = 26 reads; 3 + 1 + 2 + 2 =
# 8 dirtied pages. Keys are uniform by default since sysbench 1.0 (--rand-type=uniform).
SYSBENCH_RW = BenchmarkIo(26.0, 8.0, 1.0, 43.0, "uniform", "sysbench 1.0 oltp_common.lua")

# sysbench oltp_update_index / oltp_update_non_index, one update per transaction: the clustered
# page, plus the old and new secondary pages for update_index; the two averaged (2 and 2).
SYSBENCH_UPDATE = BenchmarkIo(2.0, 2.0, 1.0, 3.0, "uniform", "sysbench 1.0 oltp_update_*.lua")

# Insert benchmark (iibench) per row: the primary key is an auto-increment (appended, hot), and
# each of the 3 secondary indexes takes one random leaf page read and written back per row (the
# reasoning of callaghan-2009-google-wiki's insert test; iibench.py creates 3 secondary indexes).
IIBENCH = BenchmarkIo(3.0, 3.0, 1.0, 1.0, "uniform", "iibench.py: 3 secondary indexes")

# sysbench oltp_point_select: one primary-key lookup per query, one leaf page, nothing written.
POINT_SELECT = BenchmarkIo(1.0, 0.0, 1.0, 1.0, "uniform", "sysbench 1.0 oltp_point_select.lua")

# CPU work per unit, counted in primary-key point selects, so that all kinds share one CPU
# capacity and the fit may only scale each kind's count within bounds (advisor-engineering-
# judgement on relative costs; counts from the definitions above): a range of 100 rows ~5
# point selects, a row change ~3 (undo, redo, index upkeep), begin and commit ~0.5 each.
#   point select 1; sysbench update 3; iibench row 1 (iibench.py writes rows in multi-row
#   INSERTs of 1000, so parsing and the commit are shared; the four index entries of a row
#   cost about one lookup);
#   oltp_read_write 10 + 4 x 5 + 4 x 3 + 1 = 43; tpcc per new order: the order's 10 lines
#   (item read, stock read and update, line insert: 7 each) + 10, payment 0.96 x ~15, the rest
#   0.27 x ~130 (stock-level and delivery touch hundreds of rows): ~130.
BENCHMARKS: dict[str, BenchmarkIo] = {
    "oltp": TPCC,
    "read_write": SYSBENCH_RW,
    "update_heavy": SYSBENCH_UPDATE,
    "bulk_insert": IIBENCH,
    "read_mostly": POINT_SELECT,
}

# sysbench before 1.0 (0.4, 0.5) drew keys with its "special" distribution by default: 75% of
# accesses go to 1% of the rows (sysbench-oltp-lua; sysbench 0.4's --oltp-dist-pct=1 and
# --oltp-dist-res=75).
SPECIAL_DISTRIBUTION_UNTIL_YEAR = 2016
SPECIAL_HOT_SHARE = 0.01  # of the rows
SPECIAL_HOT_ACCESSES = 0.75  # of the accesses

# How a situation's keys are drawn, as the model's `access` code.
ACCESS_CODES = {"uniform": 0.0, "special": 1.0, "skewed": 2.0}
