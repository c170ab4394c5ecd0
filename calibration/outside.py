"""Why an estimate lies outside the published data, in words a user can act on.

The estimator says in_domain=False and widens the interval (calibration.interval); these
sentences say which of the profile's inputs put it there, with the value and the range the
published machines of its workload kind cover (calibration.domain), so a provisioning tool and
a reader of the result page see the same reason."""

from collections.abc import Mapping

from calibration.domain import Beyond, beyond

# Each domain column (calibration.domain.DOMAIN_COLUMNS) as a reader knows it, and how its
# figures are written.
COLUMN_WORDS = {
    "read_iops": ("the device's random 16 KiB reads per second", "{:,.0f}"),
    "write_iops": ("the device's random 16 KiB writes per second", "{:,.0f}"),
    "pool_to_data": ("the buffer pool's share of the data", "{:.2g}"),
    "cores": ("CPU cores", "{:g}"),
    "concurrency": ("clients", "{:g}"),
}


def figure(column: str, value: float) -> str:
    """A domain column's value as the sentences write it."""
    return COLUMN_WORDS[column][1].format(value)


def beyond_data(kind: str, columns: list[Beyond]) -> tuple[str, ...]:
    """One sentence per column outside the published range of `kind`."""
    return tuple(
        f"{COLUMN_WORDS[c.column][0]}: {figure(c.column, c.value)}, where published {kind} "
        f"results ran {figure(c.column, c.low)} to {figure(c.column, c.high)}"
        for c in columns
    )


def beyond_price(kind: str, seen: tuple[float, float], loads: tuple[float, float]) -> str:
    """The sentence for a measured machine beyond the load its kind's CPU price was seen at
    (calibration.kind_cpu_cost.priced_loads); `loads`: measurement threads, then workload
    clients, per core (calibration.estimator.measured_loads)."""
    measured, runs = loads
    return (
        f"clients per core: {runs:.3g}, and the measured point selects' threads per core: "
        f"{measured:.3g}, where published machines priced {kind}'s CPU against point selects "
        f"at {seen[0]:.2g} to {seen[1]:.2g} per core"
    )


def beyond_kind(
    kind: str, ranges: Mapping[str, tuple[float, float]] | None, values: Mapping[str, float]
) -> tuple[str, ...]:
    """Why `values` lie outside the published results of `kind` (`ranges`: the calibration's
    domain of that kind; None when no published result is of that kind)."""
    if ranges is None:
        return (f"no published {kind} results to compare with",)
    found = beyond(ranges, values)
    return beyond_data(kind, found) if found else ()  # inside: the engine's usual case
