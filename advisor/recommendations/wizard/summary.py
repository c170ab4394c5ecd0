"""The machine in a few short lines: the wizard's live summary and the result page's header."""

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from advisor.recommendations.wizard.steps import CURRENT_FORM, CURRENT_TEXT
from rules.units import ascii_digits

MAX_SHOWN_CHARS = 32
Getter = Callable[[str], str]  # a draft value, shortened for display

SHORT: dict[str, dict[str, str]] = {
    "flavor": {"mysql": "MySQL", "percona": "Percona Server", "mariadb": "MariaDB"},
    "media": {
        "hdd": "HDD",
        "sata_ssd": "SATA SSD",
        "nvme": "NVMe",
        "network_ssd": "network volume",
    },
    "controller_cache": {
        "none": "no controller cache",
        "write_through": "write-through cache",
        "write_back_bbu": "battery-backed write-back cache",
        "write_back": "unprotected write-back cache",
    },
    "flash_class": {"enterprise": "", "consumer": "consumer"},
    "filesystem": {"xfs": "XFS", "ext4": "ext4", "other": "other filesystem"},
    "kind": {
        "oltp": "OLTP",
        "read_write": "web read/write mix",
        "update_heavy": "update-heavy",
        "bulk_insert": "bulk inserts",
        "read_mostly": "read-mostly",
    },
    "durability": {"full": "full durability", "relaxed": "relaxed durability"},
    CURRENT_FORM: {"mycnf": "my.cnf", "show_variables": "SHOW GLOBAL VARIABLES"},
}


@dataclass(frozen=True, slots=True)
class Line:
    step: str
    title: str
    text: str  # empty when nothing was given yet


def machine_summary(draft: Mapping[str, str], rejected: Collection[str] = ()) -> tuple[Line, ...]:
    """The draft in short lines; a field named in `rejected` (one the validator refused) is left
    out, so the summary never repeats "64GB" or "six" back as if it were a fact."""

    def get(name: str) -> str:
        if name in rejected:
            return ""
        value = draft.get(name, "").strip()
        value = SHORT.get(name, {}).get(value, value)
        return value if len(value) <= MAX_SHOWN_CHARS else value[: MAX_SHOWN_CHARS - 1] + "…"

    return (
        Line("server", "Server", _join(" ", get("flavor"), get("version"))),
        Line(
            "hardware",
            "Hardware",
            _join(
                " · ",
                _unit(get("ram_gb"), "GB RAM"),
                _unit(get("memory_limit_gb"), "GB", before="limit "),
                _unit(get("cpu_cores"), "cores"),
                _unit(get("cpu_limit"), "CPUs", before="limit "),
                _unit(get("numa_nodes"), "NUMA node" + ("" if get("numa_nodes") == "1" else "s")),
                _unit(get("kernel"), "", before="Linux "),
                _unit(get("point_select_qps"), "point selects/s", before="measured "),
            ),
        ),
        Line("storage", "Storage", _storage(get)),
        Line(
            "workload",
            "Workload",
            _join(
                " · ",
                get("kind"),
                _unit(get("data_size_gb"), "GB of data"),
                _unit(get("concurrency"), "connections"),
                get("durability"),
                _unit(get("recovery_target_minutes"), "min", before="recovery within "),
            ),
        ),
        Line("current", "Current settings", _current(draft, get)),
    )


def _storage(get: Getter) -> str:
    media, count, raid = get("media"), get("device_count"), get("raid_level")
    hdd, network = media == "HDD", media == "network volume"
    rpm, flash = ("", get("flash_class")) if not hdd else (_thousands(get("rpm")), "")
    if network:  # the volume's own figures, not a drive's
        flash = _join(" ", get("volume_type"), _unit(_thousands(get("provisioned_iops")), "IOPS"))
    disks = _join(" ", f"{count} ×" if count else "", _unit(rpm, "rpm"), flash, media)
    if raid and raid != "none":
        disks += f" in {raid.upper()}"
    measured = ""
    if get("random_read") or get("random_write"):
        read, write = get("random_read") or "?", get("random_write") or "?"
        measured = f"measured {read} reads/s, {write} writes/s"
    return _join(", ", disks, get("controller_cache"), get("filesystem"), measured)


def _current(draft: Mapping[str, str], get: Getter) -> str:
    text = draft.get(CURRENT_TEXT, "")
    if not text.strip():
        return ""
    lines = len(text.splitlines())
    return f"{get(CURRENT_FORM) or 'pasted'}, {lines:,} line{'s' if lines != 1 else ''}"


def _thousands(value: str) -> str:
    return f"{int(value):,}" if ascii_digits(value) and len(value) < 10 else value


def _unit(value: str, unit: str, *, before: str = "") -> str:
    return f"{before}{value} {unit}".strip() if value else ""


def _join(separator: str, *parts: str) -> str:
    return separator.join(part for part in parts if part)
