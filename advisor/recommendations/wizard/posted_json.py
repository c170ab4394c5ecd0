"""A JSON document a visitor uploads or pastes on a page (the probe's report on the start page,
the RDS parameter list on the result page): the upload's text, else the paste's, bounded, then
decoded. Each refusal is one sentence naming what is wrong."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.files.uploadedfile import UploadedFile


class PostedRefused(Exception):
    """Why the posted text is no JSON document, in one sentence."""


@dataclass(frozen=True, slots=True)
class PostedJson:
    upload: str  # the file input's name
    paste: str  # the textarea's name
    max_bytes: int
    what: str  # what the document is, for the messages: "a probe's JSON"
    empty: str  # what to do when nothing was posted

    def text(self, posted: Mapping[str, Any], files: Mapping[str, UploadedFile]) -> str:
        """The uploaded file's text, else the pasted text; PostedRefused when too large, binary,
        not UTF-8 or empty."""
        upload = files.get(self.upload)
        if upload is not None and upload.size:
            if upload.size > self.max_bytes:
                raise PostedRefused(self._too_large("The uploaded file"))
            data = upload.read(self.max_bytes + 1)
            if b"\x00" in data:
                raise PostedRefused(f"The uploaded file is binary, not {self.what}.")
            try:
                return data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise PostedRefused("The uploaded file is not UTF-8 text.") from None
        text = posted.get(self.paste, "")
        text = text if isinstance(text, str) else ""
        if len(text.encode("utf-8", "surrogatepass")) > self.max_bytes:
            raise PostedRefused(self._too_large("The pasted text"))
        if not text.strip():
            raise PostedRefused(self.empty)
        return text

    def _too_large(self, where: str) -> str:
        return f"{where} is larger than {self.max_bytes // 1024} KiB; {self.what} is far smaller."


def decoded(text: str) -> object:
    """The JSON document; PostedRefused naming the line when it is not JSON."""
    try:
        document: object = json.loads(text)
    except (ValueError, RecursionError) as problem:
        where = f" (line {problem.lineno})" if isinstance(problem, json.JSONDecodeError) else ""
        raise PostedRefused(f"This is not valid JSON{where}.") from None
    return document
