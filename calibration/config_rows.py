"""A user's machine under several configurations as the rows the engine's estimator reads:
one tuple of plain floats per configuration, in _CONFIG_COLUMNS' order, beside the machine's
situation (calibration.features), which holds every column a configuration does not change."""

import struct
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain

import numpy as np

from calibration.device_terms import (
    NO_FSYNC_WRITE_FACTOR,
    fsync_costs_writes,
    io_factor_of,
    layout_of,
    neighbour_pages,
)
from calibration.features import (
    DEFAULT_MAX_DIRTY_PCT,
    MODEL_COLUMNS,
    Columns,
    Corrections,
    FloatArray,
    Situation,
    situation_column,
    situation_of_profile,
)
from calibration.server_config import (
    ConfigValue,
    change_buffer_of,
    flush_neighbors_of,
    io_capacity_max_of,
    io_capacity_of,
    over_defaults,
    read_ahead_on,
    redo_mb_of,
    scheduler_of,
    server_defaults,
)
from rules.current.values import is_off
from rules.inputs.profile import Profile
from rules.units import GIB

ConfigRow = tuple[float, float, float, float, float, float, float, float, float, float, float]


def profile_rows(
    profile: Profile,
    configs: Sequence[Mapping[str, ConfigValue]],
    *,
    year: int,
    corrections: Corrections | None = None,
) -> tuple[Situation, list[ConfigRow]]:
    """The machine (situation_of_profile with no settings) and each config's values of
    _CONFIG_COLUMNS, which the engine's estimator reads as plain floats."""
    machine = situation_of_profile(profile, {}, year=year, corrections=corrections)
    storage = profile.hardware.storage
    flash_no_fsync = fsync_costs_writes(storage)
    layout = layout_of(storage)
    kind = machine.kind
    binlog = machine.binlog
    rows: list[ConfigRow] = []
    defaults = server_defaults(profile.server.flavor, profile.server.version)
    machine_config = over_defaults(defaults, {})
    machine_neighbours = neighbour_pages(
        storage,
        flush_neighbors_of(profile, machine_config),
        machine.dirty_pct,
        machine.pool_to_data,
    )
    for config in (over_defaults(defaults, c) for c in configs):
        pool = float(config.get("innodb_buffer_pool_size", 128 * 1024 * 1024)) / GIB
        no_fsync = str(config.get("innodb_flush_method", "")).upper() == "O_DIRECT_NO_FSYNC"
        trx_commit = int(float(config.get("innodb_flush_log_at_trx_commit", 1)))
        dirty = float(config.get("innodb_max_dirty_pages_pct", DEFAULT_MAX_DIRTY_PCT))
        faster_writes = NO_FSYNC_WRITE_FACTOR if no_fsync and flash_no_fsync else 1.0
        neighbours = neighbour_pages(
            storage,
            flush_neighbors_of(profile, config),
            dirty or DEFAULT_MAX_DIRTY_PCT,
            pool / machine.data_gb,
        )
        rows.append(
            (
                machine.write_iops / machine_neighbours * neighbours * faster_writes,
                pool / machine.data_gb,
                float(trx_commit == 1),
                io_factor_of(storage, layout, kind, read_ahead_on(config), scheduler_of(config)),
                dirty or DEFAULT_MAX_DIRTY_PCT,
                float(not is_off(config.get("innodb_doublewrite", "ON"))),
                float(binlog and str(config.get("sync_binlog", 0)) == "1"),
                redo_mb_of(profile, config),
                io_capacity_max_of(config),
                float(change_buffer_of(config)),
                io_capacity_of(config),
            )
        )
    return machine, rows


_CONFIG_COLUMNS = (
    "write_iops",
    "pool_to_data",
    "commit_syncs",
    "io_factor",
    "dirty_pct",
    "doublewrite",
    "binlog_sync",
    "redo_mb",
    "io_capacity_max",
    "change_buffer",
    "io_capacity",
)
CONFIG_WIDTH = len(_CONFIG_COLUMNS)  # the values in a ConfigRow
_CONFIG_INDEX = {name: i for i, name in enumerate(_CONFIG_COLUMNS)}


def column_of(machine: Situation, row: ConfigRow, name: str) -> float:
    """One column's value, as as_arrays has it, from profile_rows' machine and row."""
    index = _CONFIG_INDEX.get(name)
    return situation_column(machine, name) if index is None else row[index]


def columns_of(machine: Situation, row: ConfigRow, names: Iterable[str]) -> dict[str, float]:
    """column_of for several names (the estimator's domain check)."""
    return {name: column_of(machine, row, name) for name in names}


_MACHINE_COLUMNS = tuple(c for c in MODEL_COLUMNS if c not in _CONFIG_INDEX)


def configuration_arrays(machine: Situation, rows: Sequence[ConfigRow]) -> Columns:
    """The model's columns (calibration.model) for one machine under each configuration: a
    configuration column holds a value per row, in the rows' order; a machine column holds
    its one value as a number, which broadcasts over the configurations (and costs numpy
    nothing where the model works on the machine alone)."""
    # a contiguous row per column, through struct's doubles: np.array works out the type of
    # each element of a list of tuples first (77k against 44k instructions for 15 rows,
    # callgrind)
    values = struct.pack(f"{len(rows) * CONFIG_WIDTH}d", *chain.from_iterable(rows))
    by_config = np.frombuffer(values).reshape(len(rows), CONFIG_WIDTH).T.copy()
    columns: dict[str, FloatArray | float] = dict(zip(_CONFIG_COLUMNS, by_config, strict=True))
    columns.update((name, situation_column(machine, name)) for name in _MACHINE_COLUMNS)
    return columns
