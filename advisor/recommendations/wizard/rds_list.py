"""The user's RDS parameter list on the result page: the output of `aws rds
describe-engine-default-parameters`, uploaded or pasted, read into the document that
`recommendation_compute(rds_parameters=...)` judges (rules.rds_parameters names each problem).

Only the bytes and the JSON are checked here, as the API's parser and the CLI check them; what
the document must hold is the engine's to say, so the page, the API and the CLI say the same.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.core.files.uploadedfile import UploadedFile

from advisor.unstorable import UNSTORABLE_MESSAGE, unstorable_path

PASTE, UPLOAD = "rds_text", "rds_file"
RDS_FIELD = "rds_parameters"  # the API's field, so an error names the same path everywhere
# The most the API's body may be (API_MAX_BODY_BYTES, 2 MiB) less room for the profile beside
# the list: 1 MiB, about three times the mysql8.0 list with every description. It stays below
# DATA_UPLOAD_MAX_MEMORY_SIZE (advisor/settings.py), so a pasted list this large is still read.
MAX_LIST_BYTES = 1024 * 1024


class ListRefused(Exception):
    """Why the posted text is no JSON document, in one sentence naming what is wrong."""


def list_text(posted: Mapping[str, Any], files: Mapping[str, UploadedFile]) -> str:
    """The uploaded file's text, else the pasted text; ListRefused when too large, unreadable
    or empty."""
    upload = files.get(UPLOAD)
    if upload is not None and upload.size:
        if upload.size > MAX_LIST_BYTES:
            raise ListRefused(_too_large("The uploaded file"))
        data = upload.read(MAX_LIST_BYTES + 1)
        if b"\x00" in data:
            raise ListRefused("The uploaded file is binary, not the JSON the command prints.")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ListRefused("The uploaded file is not UTF-8 text.") from None
    text = posted.get(PASTE, "")
    text = text if isinstance(text, str) else ""
    if len(text.encode("utf-8")) > MAX_LIST_BYTES:
        raise ListRefused(_too_large("The pasted text"))
    if not text.strip():
        raise ListRefused("Paste the command's JSON or choose the file it wrote.")
    return text


def _too_large(what: str) -> str:
    return f"{what} is larger than {MAX_LIST_BYTES // 1024} KiB; the command's JSON is far smaller."


def read_list(text: str) -> object:
    """The decoded document; ListRefused when it is not JSON or holds text PostgreSQL cannot
    store (a NUL, an unpaired surrogate: the API's parser refuses the same)."""
    try:
        document: object = json.loads(text)
    except (ValueError, RecursionError) as problem:
        where = f" (line {problem.lineno})" if isinstance(problem, json.JSONDecodeError) else ""
        raise ListRefused(f"This is not valid JSON{where}.") from None
    try:
        bad = unstorable_path(document) if "\\u" in text else None
    except RecursionError:
        raise ListRefused("This JSON is nested too deeply.") from None
    if bad is not None:
        raise ListRefused(f"{RDS_FIELD}{'.' + bad if bad else ''}: {UNSTORABLE_MESSAGE}.")
    return document
