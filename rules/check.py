"""The check mode: given what a server runs today, what the advisor would change and which of
today's values are unsafe, so a CI pipeline can fail on them (`manage.py check_config`,
POST /api/v1/check).

Unsafe means a value that can lose committed data, outgrow the machine or stop the server:
  * innodb_flush_method = O_DIRECT_NO_FSYNC without a protected write cache, innodb_doublewrite
    off (or DETECT_ONLY), query cache variables on MySQL 8.0+, and any variable the release
    no longer has in a pasted option file or variables object, unless given as `loose-name`
    (rules.reference.removed; rules.current.audit.unsafe_current);
  * innodb_flush_log_at_trx_commit other than 1 (or MariaDB's 3), or a pasted sync_binlog other
    than 1, when the profile asks for full durability (sync_binlog only where a binary log is
    written; rules.current.hazards, which the recommendation's warnings share);
  * a redo log whose worst-case replay exceeds the profile's recovery target;
  * a buffer pool that, with the memory the server needs beside it, is larger than the RAM or
    the memory limit (rules.current.hazards).
Pure: the profile and the engine's result in, a frozen report out.
"""

from dataclasses import dataclass

from rules.current import parse_number
from rules.current.audit import unsafe_current
from rules.current.values import current_value
from rules.inputs.profile import Current, Profile
from rules.output.result import Change, Result, Setting
from rules.reference.apply import catalog_of
from rules.reference.catalog import ServerCatalog
from rules.render.mycnf import server_value
from rules.settings.redo_log import recovery_seconds
from rules.units import bytes_for_people

NEEDS_CURRENT = (
    "a check needs the current configuration: `current` (variables, mycnf or show_variables)"
)


@dataclass(frozen=True, slots=True)
class Unsafe:
    variable: str
    current: str
    why: str


@dataclass(frozen=True, slots=True)
class CheckReport:
    result: Result
    unsafe: tuple[Unsafe, ...]

    @property
    def passed(self) -> bool:
        return not self.unsafe

    @property
    def changes(self) -> tuple[Setting, ...]:
        """The settings the advisor would move away from today's values."""
        return tuple(s for s in self.result.settings if s.change not in (None, Change.KEEP))


def check(profile: Profile, result: Result) -> CheckReport:
    """Raises ValueError when the profile carries no current configuration."""
    current = profile.current
    if current is None:
        raise ValueError(NEEDS_CURRENT)
    catalog = catalog_of(result.profile)
    found = [
        Unsafe(name, current.variables.get(name, ""), why)
        for name, why in unsafe_current(profile, catalog)
    ]
    found += _redo_beyond_target(profile, current, catalog)
    return CheckReport(result, tuple(found))


def _redo_beyond_target(profile: Profile, current: Current, catalog: ServerCatalog) -> list[Unsafe]:
    target = profile.workload.recovery_target_minutes
    if target is None:
        return []
    name, size = _current_redo(current, catalog)
    if size is None:
        return []
    media = profile.hardware.storage.media
    seconds = recovery_seconds(size, media)
    if seconds <= target * 60:
        return []
    return [
        Unsafe(
            name,
            str(size),
            f"{name}: a redo log of {bytes_for_people(size)} can take about "
            f"{seconds / 60:.0f} minutes to replay after a crash on {media.value}, beyond the "
            f"{target:g}-minute recovery target: lower it (see the recommended value).",
        )
    ]


def _current_redo(current: Current, catalog: ServerCatalog) -> tuple[str, int | None]:
    """The variable that sizes the redo log on this version and today's size in bytes, from the
    paste or the defaults (innodb_log_file_size x innodb_log_files_in_group before 8.0.30)."""
    for name in ("innodb_redo_log_capacity", "innodb_log_file_size"):
        spec = catalog.get(name)
        if spec is None:
            continue
        text, _default = current_value(current, spec, catalog)
        size = parse_number(text) if text is not None else None
        if size is None:
            return name, None
        files_spec = catalog.get("innodb_log_files_in_group")
        if name == "innodb_log_file_size" and files_spec is not None:
            files_text, _ = current_value(current, files_spec, catalog)
            files = parse_number(files_text) if files_text is not None else None
            size *= files or 1
        return name, int(size)
    return "innodb_log_file_size", None


def report_to_dict(report: CheckReport) -> dict[str, object]:
    """The report as the API answers it and `check_config --json` prints it."""
    result = report.result
    return {
        "passed": report.passed,
        "unsafe": [
            {"variable": u.variable, "current": u.current, "why": u.why} for u in report.unsafe
        ],
        "changes": [
            {
                "name": s.name,
                "current": s.current,
                "value": server_value(s),
                "change": s.change.value if s.change else None,
                "when": "now" if s.dynamic else "restart",
                "reason": s.reason,
            }
            for s in report.changes
        ],
        "warnings": list(result.warnings),
        "recommendation_id": result.id,
        "ruleset_version": result.ruleset_version,
    }
