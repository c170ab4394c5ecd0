"""The profile's field table, read from its one declaration in `rules.inputs.profile`.

Validation, the wizard's forms and the API's Profile schema read this table, so the three faces
accept the same fields, ranges and choices (product contract, "Input: the profile"). A new input
field is declared on its dataclass field in `rules.inputs.profile` with `accepts(...)`; it is not
listed
here.
"""

from rules.inputs.enums import RaidLevel
from rules.inputs.field_spec import FieldSpec, Kind, input_fields
from rules.inputs.profile import Profile

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
# The most a pasted configuration may hold, per form, in bytes of UTF-8: what the form needs,
# with headroom, since each byte is parsed on the request. Measured here on MariaDB 10.11.19 with
# its defaults: SHOW GLOBAL VARIABLES lists 657 variables, 19,615 bytes in batch form
# (`mariadb -B`), 81,827 vertically (`\G`) and 600,600 as the client's boxed table (`--table`,
# what a terminal shows: every row padded to the widest value, optimizer_switch's 846 characters).
# A [mysqld] section that set every one of those variables as name=value would be about 20 KB, or
# under 100 KB with a comment line each; 256 KiB holds that more than twice. The variables object
# is the same content without the syntax. Only the boxed table needs more: 1,000,000 bytes, 1.7
# times the measured one (MySQL 8.4 lists a similar number of variables).
MAX_TEXT_BYTES: dict[str, int] = {
    "variables": 256 * 1024,
    "mycnf": 256 * 1024,
    "show_variables": 1_000_000,
}
MAX_CURRENT_TEXT_BYTES = max(MAX_TEXT_BYTES.values())  # the largest paste of any form
