"""The profile's field table, read from its one declaration in `rules.profile`.

Validation, the wizard's forms and the API's Profile schema read this table, so the three faces
accept the same fields, ranges and choices (product contract, "Input: the profile"). A new input
field is declared on its dataclass field in `rules.profile` with `accepts(...)`; it is not listed
here.
"""

from rules.enums import RaidLevel
from rules.field_spec import FieldSpec, Kind, input_fields
from rules.profile import Profile

__all__ = ["FIELDS", "FIELDS_BY_PATH", "FieldSpec", "Kind"]

FIELDS: tuple[FieldSpec, ...] = input_fields(Profile)
FIELDS_BY_PATH: dict[str, FieldSpec] = {spec.path: spec for spec in FIELDS}
# A probe's report about its own reading (probe.version, provenance, undetected): accepted and
# echoed, but not a fact about the server that a form or a CSV column asks for.
REPORT_SECTIONS = ("probe", "provenance", "undetected")
REPORT_PATHS: frozenset[str] = frozenset(
    spec.path for spec in FIELDS if spec.path.split(".", 1)[0] in REPORT_SECTIONS
)

# Which device counts each RAID level accepts (product contract: raid1/raid10 need an even count
# >= 2, raid5 >= 3, raid6 >= 4).
RAID_MIN_DEVICES: dict[RaidLevel, int] = {
    RaidLevel.NONE: 1,
    RaidLevel.RAID0: 1,
    RaidLevel.RAID1: 2,
    RaidLevel.RAID5: 3,
    RaidLevel.RAID6: 4,
    RaidLevel.RAID10: 2,
}
RAID_NEEDS_EVEN: frozenset[RaidLevel] = frozenset({RaidLevel.RAID1, RaidLevel.RAID10})

CURRENT_FORMS: tuple[str, ...] = ("variables", "mycnf", "show_variables")
MAX_CURRENT_TEXT_BYTES = 1_000_000
