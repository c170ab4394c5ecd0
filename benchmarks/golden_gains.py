"""The gain each golden profile gets with a current configuration pasted, and the widest.

The golden profiles (tests/golden/profiles/*.json) carry no current configuration, so each is
given the my.cnf files of CURRENT_MYCNFS in turn: a distribution's stock one, a half-tuned one,
and the profile's own recommendation pasted back. Each is recommended with the shipped
calibration's estimator (calibration.artifact.load_latest) and its gain interval, recommended
against current, printed with its width (high / low). The issue's target: none wider than x4
(tests/test_gain_widths.py holds it). Prints and exits 0; asserts nothing. About 5 s.
"""

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from calibration.artifact import load_latest  # noqa: E402
from calibration.estimator import CalibratedEstimator  # noqa: E402
from rules.engine import recommend  # noqa: E402
from rules.inputs.validation import parse_profile  # noqa: E402
from rules.output.result import Estimate  # noqa: E402
from rules.render.mycnf import render_mycnf  # noqa: E402

PROFILES_DIR = ROOT / "tests" / "golden" / "profiles"
RECOMMENDATION = "recommendation"  # CURRENT_MYCNFS' key for the recommendation pasted back
# What a user pastes: a stock my.cnf (the server's defaults, a small pool), one tuned half-way
# (a bigger pool, a relaxed commit flush, direct IO), and the advisor's own my.cnf.
CURRENT_MYCNFS = {
    "stock": "[mysqld]\ninnodb_buffer_pool_size=128M\ninnodb_io_capacity=200\n",
    "half-tuned": (
        "[mysqld]\ninnodb_buffer_pool_size=4G\ninnodb_flush_log_at_trx_commit=2\n"
        "innodb_flush_method=O_DIRECT\ninnodb_io_capacity=1000\n"
    ),
    RECOMMENDATION: "",
}


def golden_raw_profiles() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(PROFILES_DIR.glob("*.json"))}


def golden_gains() -> list[tuple[str, str, Estimate]]:
    """(profile, current my.cnf's name, gain) for each golden profile and CURRENT_MYCNFS."""
    calibration = load_latest()
    assert calibration is not None, "the repository ships a calibration artifact"
    estimator = CalibratedEstimator(calibration)
    rows = []
    for name, raw in golden_raw_profiles().items():
        for label, mycnf in CURRENT_MYCNFS.items():
            if label == RECOMMENDATION:
                mycnf = render_mycnf(recommend(parse_profile(raw)))
            profile = parse_profile({**raw, "current": {"mycnf": mycnf}})
            estimates = recommend(profile, estimator=estimator).estimate
            assert estimates is not None
            assert estimates.gain is not None
            rows.append((name, label, estimates.gain))
    return rows


def main() -> None:
    rows = golden_gains()
    for name, label, gain in rows:
        print(
            f"{name:<24} {label:<14} x{gain.low:<6.3g} to x{gain.high:<6.3g} "
            f"width x{gain.high / gain.low:6.2f}  ({gain.bottleneck}"
            f"{'' if gain.in_domain else ', outside the data'})"
        )
    widest = max(rows, key=lambda row: row[2].high / row[2].low)
    print(
        f"widest: {widest[0]} with the {widest[1]} my.cnf, x{widest[2].high / widest[2].low:.2f} "
        f"({len(rows)} profiles and pastes)"
    )


if __name__ == "__main__":
    main()
