"""A decision the team has to make, measured: tpcc's stock changes over the stock's pages only.

calibration.model.write_combining spreads tpcc's 10 stock changes a new order by NURand over
*all* the data's pages (calibration.model._skewed_dirtied), though the NURand curve it uses
(calibration.benchmarks.NURAND_DIRTIED) is defined over the stock table's pages, and the other
~5 changes go to the other tables. Stock is about 40% of a warehouse's pages, so the model
dirties too many distinct pages per window and combines too few page writes: on
percona-2016-tpcc-samsung's SATA SSDs its write capacity grows x2.1-x2.5 from a 5 to a 65 GB
pool where the published rate grows x8.9-x14 (stop 28's closing note).

This fits the model both ways on the calibration data and prints the report's headline figures
side by side: each source held out, as `manage.py calibrate --json` reports them. The variant
is applied by replacing the module's dirtied table for the fit only; nothing is written.

Run: .venv/bin/python benchmarks/tpcc_write_window.py  (two fits, ~10 s)
"""

import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import calibration.model as model
from calibration.benchmarks import NURAND_DIRTIED, NURAND_WINDOWS, TPCC, TPCC_STOCK_CHANGES
from calibration.calibrate import run_calibration
from calibration.points import load_points

# One warehouse's rows at the start of a run (tpc-c-spec-5-11 clause 4.3.3.1) and the spec's
# typical row lengths in bytes, plus InnoDB's 18 bytes of row header, transaction id and roll
# pointer, in 16 KiB pages filled to 15/16: (rows, bytes) by table.
WAREHOUSE_ROWS = {
    "stock": (100_000, 306),
    "customer": (30_000, 655),
    "order_line": (300_000, 54),
    "orders": (30_000, 24),
    "history": (30_000, 46),
    "new_order": (9_000, 8),
}
ROW_OVERHEAD = 18
PAGE_FILL = 16384 * 15 / 16


def stock_page_share() -> float:
    """The stock table's share of one warehouse's leaf pages."""
    pages = {t: n * (b + ROW_OVERHEAD) / PAGE_FILL for t, (n, b) in WAREHOUSE_ROWS.items()}
    return pages["stock"] / sum(pages.values())


def stock_pages_only(share: float) -> tuple[np.ndarray, np.ndarray]:
    """_skewed_dirtied with the stock changes over the stock's pages (`share` of the data) and
    the others evenly over the rest: the share of all pages a window of u x pages changes
    dirties."""
    windows = np.concatenate([[0.0], NURAND_WINDOWS])
    stock = TPCC_STOCK_CHANGES / TPCC.writes
    extended = np.concatenate([windows, [math.inf]])
    table = np.concatenate([[0.0], NURAND_DIRTIED, [1.0]])
    on_stock = np.interp(stock * windows / share, extended, table)
    elsewhere = -np.expm1(-(1.0 - stock) * windows / (1.0 - share))
    return windows, np.maximum.accumulate(share * on_stock + (1.0 - share) * elsewhere)


def headline(report: dict[str, Any]) -> dict[str, object]:
    pairs = report["pairs"]
    return {
        "coverage": report["coverage"],
        "median width": report["median_width_ratio"],
        "median error": round(math.exp(report["median_abs_log_error"]), 3),
        "pairs within x1.5": pairs["within_tolerance"],
        "wrong directions": pairs["wrong_direction"],
        "gain out-of-domain widening": pairs["out_of_domain_widening"],
        "gain unpriced classes": sorted(pairs.get("unpriced") or {}),
    }


def main() -> None:
    points = load_points()
    today = headline(run_calibration(points, version="today").report)
    share = stock_page_share()
    saved = model._SKEWED_WINDOWS, model._SKEWED_DIRTIED
    model._SKEWED_WINDOWS, model._SKEWED_DIRTIED = stock_pages_only(share)
    try:
        variant = headline(run_calibration(points, version="variant").report)
    finally:
        model._SKEWED_WINDOWS, model._SKEWED_DIRTIED = saved
    print(f"stock's share of a warehouse's pages: {share:.3f}")
    print(f"{'':30s} {'today':>10s} {'stock only':>12s}")
    for name, value in today.items():
        print(f"{name:30s} {value!s:>10s} {variant[name]!s:>12s}")


if __name__ == "__main__":
    main()
