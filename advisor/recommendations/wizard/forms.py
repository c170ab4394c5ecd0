"""The step forms, generated from `rules.inputs.field_table.FIELDS`.

The forms only render: they hold no validation of their own. Every value is checked by
`rules.inputs.validation.parse_profile` (see `steps.validate`), whose messages the form then shows
next to
the field, so the browser and the API say the same thing about the same input. Browser-side
constraint checks are off (`novalidate` in the template) for the same reason.
"""

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms

from advisor.recommendations.wizard.steps import (
    CURRENT_FORM,
    CURRENT_TEXT,
    NON_FIELD,
    PASTE_FORMS,
    Step,
)
from rules.inputs.field_table import MAX_CURRENT_TEXT_BYTES, MAX_TEXT_BYTES, FieldSpec, Kind

# How each closed value reads in a list; the values themselves are the schema's.
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "flavor": {"mysql": "MySQL", "percona": "Percona Server", "mariadb": "MariaDB"},
    "media": {
        "hdd": "Hard disks (HDD)",
        "sata_ssd": "SATA SSD",
        "nvme": "NVMe SSD",
        "network_ssd": "Network volume (EBS, Persistent Disk, Azure disk, SAN)",
    },
    "volume_type": {
        "aws_gp2": "AWS EBS gp2",
        "aws_gp3": "AWS EBS gp3",
        "aws_io1": "AWS EBS io1",
        "aws_io2": "AWS EBS io2 Block Express",
        "gcp_pd_balanced": "Google Cloud pd-balanced",
        "gcp_pd_ssd": "Google Cloud pd-ssd",
        "gcp_hyperdisk_balanced": "Google Cloud Hyperdisk Balanced",
        "azure_premium_ssd": "Azure Premium SSD (P30 figures)",
        "azure_premium_ssd_v2": "Azure Premium SSD v2",
        "azure_ultra_disk": "Azure Ultra Disk",
        "san": "SAN volume",
    },
    "rpm": {r: f"{int(r):,} rpm" for r in ("5400", "7200", "10000", "15000")},
    "raid_level": {
        "none": "None: a single device",
        "raid0": "RAID 0 (striping)",
        "raid1": "RAID 1 (mirror)",
        "raid5": "RAID 5",
        "raid6": "RAID 6",
        "raid10": "RAID 10",
    },
    "controller_cache": {
        "none": "None, or no RAID controller",
        "write_through": "Write-through",
        "write_back_bbu": "Write-back, battery or flash backed (BBU)",
        "write_back": "Write-back without battery (unsafe)",
    },
    "flash_class": {
        "enterprise": "Enterprise, with power-loss protection",
        "consumer": "Consumer, without power-loss protection",
    },
    "filesystem": {"xfs": "XFS", "ext4": "ext4", "other": "Other"},
    "kind": {
        "oltp": "OLTP: order processing, reads and writes (TPC-C-like)",
        "read_write": "Web application: point reads and small writes",
        "update_heavy": "Many small updates, bound by commits",
        "bulk_insert": "Bulk inserts and loads into indexed tables",
        "read_mostly": "Read-mostly point lookups",
    },
    "durability": {
        "full": "Full: every commit survives a crash",
        "relaxed": "Relaxed: up to about a second of commits may be lost",
    },
}
PASTE_LABELS = {"mycnf": "a my.cnf file", "show_variables": "SHOW GLOBAL VARIABLES output"}
BLANK_LABELS = {
    "rpm": "Not known (7,200 rpm assumed)",
    "flash_class": "Not known (enterprise assumed)",
    "filesystem": "Not given",
    "volume_type": "Not known (3,000 IOPS assumed unless provisioned IOPS are given)",
}
PLACEHOLDERS = {"version": "8.0.36", "kernel": "5.15"}
BOOLEAN_CHOICES = [("false", "No"), ("true", "Yes")]


class RawField(forms.Field):
    """Keeps the posted text as it is; `parse_profile` is the only judge of it."""

    optional = False  # shown as "(optional)" next to the label
    mark: Any = (
        None  # a probe's mark (detected, measured, assumed) while it holds the probe's value
    )

    def to_python(self, value: Any) -> str:
        return value if isinstance(value, str) else ""


def choices_for(spec: FieldSpec) -> list[tuple[str, str]]:
    labels = CHOICE_LABELS.get(spec.name, {})
    choices = [(value, labels.get(value, value)) for value in spec.choices]
    if spec.nullable:
        choices.insert(0, ("", BLANK_LABELS.get(spec.name, "Not given")))
    return choices


def _describe(name: str) -> dict[str, str]:
    return {"aria-describedby": f"id_{name}_helptext id_{name}_error"}


def field_for(spec: FieldSpec, live: Mapping[str, str]) -> RawField:
    attrs = {**_describe(spec.name), **live}
    if spec.kind is Kind.BOOLEAN:
        widget: forms.Widget = forms.Select(attrs=attrs, choices=BOOLEAN_CHOICES)
    elif spec.choices:
        widget = forms.Select(attrs=attrs, choices=choices_for(spec))
    else:
        attrs["spellcheck"] = "false"  # autocomplete stays on: the browser restores typed values
        if spec.kind in (Kind.NUMBER, Kind.INTEGER):
            attrs["inputmode"] = "numeric" if spec.kind is Kind.INTEGER else "decimal"
        else:
            attrs["maxlength"] = str(spec.max_length)
        if spec.name in PLACEHOLDERS:
            attrs["placeholder"] = "e.g. " + PLACEHOLDERS[spec.name]
        widget = forms.TextInput(attrs=attrs)
    help_text = spec.help
    if spec.kind in (Kind.NUMBER, Kind.INTEGER) and not spec.choices:
        help_text += f" Accepts {spec.describe_range()}."
    field = RawField(label=spec.label, help_text=help_text, required=False, widget=widget)
    field.optional = not spec.required and spec.default is None
    return field


def paste_fields(live: Mapping[str, str]) -> dict[str, RawField]:
    kind = forms.RadioSelect(
        attrs=live, choices=[(form, PASTE_LABELS[form]) for form in PASTE_FORMS]
    )
    text_attrs = {
        **_describe(CURRENT_TEXT),
        **live,
        "rows": "12",
        "maxlength": str(MAX_CURRENT_TEXT_BYTES),
        "spellcheck": "false",
        "class": "paste",
    }
    return {
        CURRENT_FORM: RawField(label="What you paste", required=False, widget=kind),
        CURRENT_TEXT: RawField(
            label="Current settings",
            help_text=(
                f"The [mysqld] part of my.cnf (up to {MAX_TEXT_BYTES['mycnf']:,} bytes), or the "
                "output of SHOW GLOBAL VARIABLES (up to "
                f"{MAX_TEXT_BYTES['show_variables']:,} bytes). Leave it empty to skip."
            ),
            required=False,
            widget=forms.Textarea(attrs=text_attrs),
        ),
    }


@dataclass(frozen=True, slots=True)
class Group:
    """Fields shown together; a collapsible group starts closed unless it holds a value."""

    title: str
    help: str
    fields: list[forms.BoundField]
    collapsible: bool = False
    open: bool = True


# Optional measurements, each shown folded under its own title unless filled in:
# (title, help, the draft fields).
MEASURED_GROUPS = (
    (
        "Measured IOPS (optional)",
        "If you ran fio against the array (16 KiB random reads and writes), give both figures: "
        "they replace the model of the disks.",
        ("random_read", "random_write"),
    ),
    (
        "Measured CPU (optional)",
        "If you ran sysbench oltp_point_select against this server with its data in the buffer "
        "pool, give its queries per second and its --threads: the estimate then takes the "
        "CPU's speed from them instead of assuming a typical core of today.",
        ("point_select_qps", "threads"),
    ),
)
MEASURED = frozenset(name for _, _, names in MEASURED_GROUPS for name in names)


def live_attrs(check_url: str, *, typing: bool) -> dict[str, str]:
    """htmx attributes that check a field as it changes; the answer swaps only error slots.

    Checks and the step's own submit queue on the form, none aborting another: a check is never
    lost, and the submit waits for the check in flight (a few milliseconds).
    """
    trigger = "change, input changed delay:600ms" if typing else "change"
    return {
        "hx-post": check_url,
        "hx-trigger": trigger,
        "hx-swap": "none",
        "hx-sync": "closest form:queue all",
    }


class StepForm(forms.Form):
    """One step's fields, bound to the draft, showing the errors it is given."""

    def __init__(
        self,
        step: Step,
        draft: Mapping[str, str],
        *,
        errors: Mapping[str, list[str]],
        report: Collection[str] | None = None,
        check_url: str,
        marks: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(data={name: draft.get(name, "") for name in step.names})
        self.step = step
        self._shown = {
            name: messages for name, messages in errors.items() if report is None or name in report
        }
        if step.slug == "current":
            self.fields.update(paste_fields(live_attrs(check_url, typing=True)))
        for spec in step.specs:
            live = live_attrs(check_url, typing=not spec.choices)
            self.fields[spec.name] = field_for(spec, live)
        for name, mark in (marks or {}).items():
            if name in self.fields:
                self.fields[name].mark = mark

    def groups(self) -> list[Group]:
        main = [self[name] for name in self.fields if name not in MEASURED]
        groups = [Group("", "", main)]
        for title, help_text, names in MEASURED_GROUPS:
            measured = [self[name] for name in names if name in self.fields]
            if measured:
                filled = any(field.value() or field.errors for field in measured)
                groups.append(Group(title, help_text, measured, collapsible=True, open=filled))
        return groups

    def clean(self) -> dict[str, Any]:
        for name, messages in self._shown.items():
            if name in self.fields or name == NON_FIELD:
                for message in messages:
                    self.add_error(None if name == NON_FIELD else name, message)
        return self.cleaned_data
