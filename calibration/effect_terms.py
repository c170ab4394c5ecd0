"""What a setting's effect may say: which of the model's capacities a change moves, so that an
effect the model cannot price is None with the reason, and a near-zero one names the capacity
that binds instead; and the ceiling an estimate may not pass (the device, the page cleaner and
the log syncs its own figures allow)."""

from collections.abc import Sequence

import numpy as np

from calibration.model import BOTTLENECKS, Demand
from rules.output.result import Effect

# Below this the model computes no change worth printing: "+0%" (issue #42).
SMALL_EFFECT_PCT = 0.5
# A term moved when its time per unit changes by more than this share (float noise is ~1e-15).
_MOVED = 1e-9
# What each of the model's capacities (calibration.model.BOTTLENECKS' order) is, in a sentence.
TERM_TEXT = (
    "the CPU",
    "the clients' wait for their reads and commits",
    "the device's time (reads and page writes)",
    "the log's syncs at commit",
    "checkpoint flushing",
)
# What the model reads each modelled setting as (calibration.config_rows.profile_rows).
READS_AS = {
    "innodb_buffer_pool_size": "the share of the data the pool caches",
    "innodb_io_capacity": "the pace of the change buffer's merges in the insert benchmark",
    "innodb_io_capacity_max": "the cap on checkpoint flushing",
    "innodb_redo_log_capacity": "how long the redo lets a dirty page wait, so changes share a "
    "write",
    "innodb_log_file_size": "how long the redo lets a dirty page wait, so changes share a write",
    "innodb_log_files_in_group": "how long the redo lets a dirty page wait, so changes share a "
    "write",
    "innodb_read_ahead_threshold": "the device's random-read rate, which read-ahead lowers",
    "innodb_random_read_ahead": "the device's random-read rate, which read-ahead lowers",
    "io_scheduler": "the device's rate under each scheduler",
    "innodb_flush_log_at_trx_commit": "a redo sync at every commit (1) or none (0 and 2)",
    "innodb_flush_method": "O_DIRECT_NO_FSYNC's saving of the data files' fsync, on flash "
    "without a protected write cache only (on disks a seek dwarfs the fsync; behind a "
    "protected cache it is answered from memory); it has no term for the page cache's "
    "double buffering",
    "innodb_max_dirty_pages_pct": "how many dirty pages may wait, so changes share a write",
    "innodb_doublewrite": "the second, sequential copy of each page write",
    "innodb_flush_neighbors": "the neighbour pages a disk writes in the same seek",
    "sync_binlog": "a binary-log sync at every commit group, with the binary log on",
}
READ_ONLY_KINDS = {"read_mostly": "sysbench oltp_point_select"}
UNCHANGED = (
    "the recommended value is the one the server runs today, so there is nothing to estimate"
)


def unpriced_note(name: str, kind: str) -> str:
    """Why a change moves none of the model's capacities on this profile."""
    what = READS_AS.get(name, "nothing")
    benchmark = READ_ONLY_KINDS.get(kind)
    if benchmark is not None and name not in _READ_PATH:
        return (
            f"the model reads it as {what}, and this workload's reference benchmark "
            f"({benchmark}) writes nothing, so no figure of the model changes; the writes a "
            "read-mostly server does are not in that estimate"
        )
    return (
        f"the model reads it only as {what}, and against the other values running today this "
        "change moves none of its figures here"
    )


_READ_PATH = frozenset(
    {
        "innodb_buffer_pool_size",
        "innodb_read_ahead_threshold",
        "innodb_random_read_ahead",
        "io_scheduler",
    }
)


def moved_terms(before: np.ndarray, after: np.ndarray) -> list[int]:
    """The capacities (term indexes) whose time per unit differs between two configurations'
    first-vector times (calibration.model.predict_rows_detailed)."""
    moved = []
    for term, (old, new) in enumerate(zip(before.tolist(), after.tolist(), strict=True)):
        if old == new:
            continue
        if not (np.isfinite(old) and np.isfinite(new)) or abs(new - old) > _MOVED * abs(old):
            moved.append(term)
    return moved


def small_effect_why(moved: Sequence[int], binding: int) -> str:
    """An effect under SMALL_EFFECT_PCT: what binds, and what the setting moves instead."""
    if binding in moved:
        return (
            f"{TERM_TEXT[binding]} binds, and against the other values running today this "
            f"change moves it by {SMALL_EFFECT_PCT:g}% or less"
        )
    moves = " and ".join(TERM_TEXT[t] for t in moved)
    return f"{TERM_TEXT[binding]} binds, which this change does not move (it moves {moves})"


def is_small(effect: Effect) -> bool:
    """Prints as "+0%": each end rounds to a whole 0 as the result page rounds it (round half
    to even, so 0.5 too)."""
    return round(effect.low_pct) == 0 and round(effect.high_pct) == 0


def ceiling(demand: Demand, row: int) -> tuple[float, str]:
    """The most throughput one configuration (a row of `demand`) allows on the device, the
    page cleaner and the log syncs, and what sets it, in a sentence with its figures."""
    ceilings = demand.ceilings()
    limit, value = min(((k, float(v[row])) for k, v in ceilings.items()), key=lambda kv: kv[1])
    per_second = float(demand.per_second[row])
    if limit == "device":
        reads = value * float(demand.reads[row]) / per_second
        writes = value * float(demand.writes[row]) / per_second
        load = " and ".join(
            text
            for text, rate in (
                (f"{_n(reads)} random reads/s", reads),
                (f"{_n(writes)} page writes/s", writes),
            )
            if rate >= 0.5
        )
        said = (
            f"the device's time is full with {load} (it serves {_n(demand.read_rate[row])} "
            f"reads/s or {_n(demand.write_rate[row])} page writes/s with the clients' requests "
            "queued, as the model counts them; a storage figure in a setting's explanation is "
            "one request at a time)"
        )
    elif limit == "checkpoint flushing":
        flushed = value * float(demand.checkpoint[row]) / per_second
        said = (
            f"checkpoint flushing writes {_n(flushed)} pages/s, the most innodb_io_capacity_max "
            "times the fitted overdrive of sync flushing allows"
        )
    else:
        syncs = value * float(demand.syncs[row])
        said = f"the log syncs {_n(syncs)} times a second, all the storage serves"
    return value, said


def _n(value: float) -> str:
    return f"{float(value):,.0f}"


assert len(TERM_TEXT) == len(BOTTLENECKS)
