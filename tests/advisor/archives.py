"""Fetching a batch archive in tests: built first when it is not yet, and checked whole."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import Any


def archive_zip(response: Any) -> zipfile.ZipFile:
    """The zip of a 200 archive answer, checked whole: Content-Length is its body's size."""
    assert response.status_code == 200, response.content
    body = b"".join(response.streaming_content)
    assert int(response["Content-Length"]) == len(body)
    archive = zipfile.ZipFile(io.BytesIO(body))
    assert archive.testzip() is None
    return archive


def fetch_built(fetch: Callable[[], Any], capture: Callable[..., Any]) -> Any:
    """Ask for an archive; when it is being built (409), run the build that answer queued (the
    commit's callbacks, tasks in-process) and ask again."""
    with capture(execute=True):
        first = fetch()
    return fetch() if first.status_code == 409 else first
