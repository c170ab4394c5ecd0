"""Read what a server runs today: the profile's `current`, in any of its three forms.

`{"variables": {...}}` is taken as given, `{"mycnf": "..."}` is read with the server's option-file
rules (mysys `my_default.cc`: groups, `#` comments outside quotes, quotes and escapes, the
`loose-`, `skip-`, `disable-` and `enable-` prefixes), and `{"show_variables": "..."}` accepts what
the mysql client prints in batch (tab), table and vertical (`\\G`) modes. An optional `os` object
gives the kernel settings. Whatever the input, the only exception raised is `CurrentParseError`.

One module per job: `parse` picks the form, `variables`, `mycnf`, `show_variables` and `system`
read one each, `names`, `numbers`, `text` and `messages` hold what they share.
"""

from rules.current.errors import CurrentParseError
from rules.current.names import normalise_name
from rules.current.parse import ORIGIN_LABELS, parse_current
from rules.current.server_numbers import parse_number

__all__ = ["ORIGIN_LABELS", "CurrentParseError", "normalise_name", "parse_current", "parse_number"]
