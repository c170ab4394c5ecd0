"""The user's RDS parameter list on the result page: the output of `aws rds
describe-engine-default-parameters`, uploaded or pasted, read into the document that
`recommendation_compute(rds_parameters=...)` judges (rules.current.rds_parameters names each
problem).

Only the bytes and the JSON are checked here, as the API's parser and the CLI check them; what
the document must hold is the engine's to say, so the page, the API and the CLI say the same.
"""

from __future__ import annotations

from advisor.recommendations.wizard.posted_json import PostedJson, PostedRefused, decoded
from advisor.unstorable import UNSTORABLE_MESSAGE, unstorable_path

PASTE, UPLOAD = "rds_text", "rds_file"
RDS_FIELD = "rds_parameters"  # the API's field, so an error names the same path everywhere
# The most the API's body may be (API_MAX_BODY_BYTES, 2 MiB) less room for the profile beside
# the list: 1 MiB, about three times the mysql8.0 list with every description. It stays below
# DATA_UPLOAD_MAX_MEMORY_SIZE (advisor/settings.py), so a pasted list this large is still read.
MAX_LIST_BYTES = 1024 * 1024


POSTED = PostedJson(
    upload=UPLOAD,
    paste=PASTE,
    max_bytes=MAX_LIST_BYTES,
    what="the JSON the command prints",
    empty="Paste the command's JSON or choose the file it wrote.",
)


def read_list(text: str) -> object:
    """The decoded document; PostedRefused when it is not JSON or holds text PostgreSQL cannot
    store (a NUL, an unpaired surrogate: the API's parser refuses the same)."""
    document = decoded(text)
    try:
        bad = unstorable_path(document) if "\\u" in text else None
    except RecursionError:
        raise PostedRefused("This JSON is nested too deeply.") from None
    if bad is not None:
        raise PostedRefused(f"{RDS_FIELD}{'.' + bad if bad else ''}: {UNSTORABLE_MESSAGE}.")
    return document
