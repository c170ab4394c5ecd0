"""Versioned calibration artifacts: one JSON file per fit, the newest one loaded at run time."""

import json
import os
import time
from functools import lru_cache
from pathlib import Path

from calibration.calibrate import Calibration

ARTIFACT_DIR = Path(__file__).resolve().parent / "artifacts"
PREFIX = "calibration-"
# Another process's new artifact is seen within this long; a request does not list the folder.
RECHECK_SECONDS = 1.0
_last_look: dict[Path, tuple[float, tuple[Path, int] | None]] = {}  # folder -> (when, newest)


def artifact_dir() -> Path:
    """CALIBRATION_ARTIFACT_DIR overrides the shipped folder (e.g. a volume in production)."""
    return Path(os.environ.get("CALIBRATION_ARTIFACT_DIR") or ARTIFACT_DIR)


def save(calibration: Calibration, directory: Path | None = None) -> Path:
    folder = directory or artifact_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{PREFIX}{calibration.version}.json"
    temporary = path.with_suffix(".tmp")
    temporary.write_text(
        json.dumps(calibration.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    temporary.replace(path)
    _last_look.pop(folder, None)  # this process sees its own new artifact at once
    return path


def latest_path(directory: Path | None = None) -> Path | None:
    """The newest artifact by version string (versions sort by date, then run number)."""
    folder = directory or artifact_dir()
    candidates = sorted(folder.glob(f"{PREFIX}*.json")) if folder.is_dir() else []
    return candidates[-1] if candidates else None


def load(path: Path) -> Calibration:
    return Calibration.from_json(json.loads(path.read_text(encoding="utf-8")))


def load_latest(directory: Path | None = None) -> Calibration | None:
    """The newest artifact, parsed once per file version (path and modification time); the
    folder is looked at most once per RECHECK_SECONDS, not on every request."""
    folder = directory or artifact_dir()
    now = time.monotonic()
    seen = _last_look.get(folder)
    if seen is None or now - seen[0] >= RECHECK_SECONDS:
        path = latest_path(folder)
        version = None if path is None else (path, path.stat().st_mtime_ns)
        _last_look[folder] = seen = (now, version)
    if seen[1] is None:
        return None
    return _load_cached(*seen[1])


@lru_cache(maxsize=4)
def _load_cached(path: Path, mtime_ns: int) -> Calibration:
    return load(path)
