"""One address floods a result page while another user reads the API: what the flood costs
the other user.

wrk opens CONNECTIONS connections from this host to a stored result's page for ATTACK seconds;
meanwhile a victim sends GET /api/v1/rules one after another and times each answer. Before the
flood the victim does the same for BASELINE seconds alone. With the production PAGE_RATE the
flood is refused (429) after its first requests, so what the victim sees is the price of a
refusal while the flood keeps every web worker busy. Prints one row per phase: the victim's
requests, median and p90 latency, and the flood's requests/s and share of 429s.

Run by benchmarks/page_flood.sh, which starts gunicorn with production settings.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.inputs.examples import raw_profile

BASELINE = float(os.environ.get("BASELINE", "10"))
ATTACK = int(os.environ.get("ATTACK", "20"))
CONNECTIONS = int(os.environ.get("CONNECTIONS", "32"))
WRK_THREADS = int(os.environ.get("WRK_THREADS", "2"))
HEADERS = {"X-Forwarded-Proto": "https"}  # the script plays the TLS proxy
STATUS_LUA = """
wrk.headers["X-Forwarded-Proto"] = "https"
refused, other = 0, 0
local threads = {}
function setup(thread) table.insert(threads, thread) end
function response(status, headers, body)
  if status == 429 then refused = refused + 1 else other = other + 1 end
end
function done(summary, latency, requests)
  local r, o = 0, 0
  for _, t in ipairs(threads) do r = r + t:get("refused"); o = o + t:get("other") end
  io.write(string.format("STATUS %d %d\\n", r, o))
end
"""


def request(base: str, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
    try:
        headers = {**HEADERS, "Content-Type": "application/json"} if body else HEADERS
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def victim(base: str, seconds: float) -> list[float]:
    """Milliseconds of each sequential GET /api/v1/rules for `seconds`."""
    times = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        status, _ = request(base, "GET", "/api/v1/rules")
        if status != 200:
            raise SystemExit(f"the victim got {status}")
        times.append((time.monotonic() - started) * 1000)
    return times


def row(label: str, times: list[float], flood: str = "") -> str:
    deciles = statistics.quantiles(times, n=10)
    return (
        f"{label:<28} {len(times):>6} {statistics.median(times):>9.1f} {deciles[8]:>9.1f}  {flood}"
    )


def main() -> None:
    base, label = sys.argv[1], sys.argv[2]
    profile = json.dumps(raw_profile()).encode()
    status, body = request(base, "POST", "/api/v1/recommendations", profile)
    if status != 201:
        raise SystemExit(f"storing a result answered {status}: {body[:200]!r}")
    page = f"{base}/r/{json.loads(body)['id']}/"
    if request(base, "GET", urlsplit(page).path)[0] != 200:
        raise SystemExit("the result page does not answer 200")

    baseline = victim(base, BASELINE)
    script = Path(os.environ.get("TMPDIR", "/tmp")) / f"page_flood_{os.getpid()}.lua"
    script.write_text(STATUS_LUA)
    try:
        wrk = subprocess.Popen(
            ["wrk", f"-t{WRK_THREADS}", f"-c{CONNECTIONS}", f"-d{ATTACK}s", "-s", str(script),
             page],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        time.sleep(1)  # the flood is under way and already refused
        attacked = victim(base, ATTACK - 2)
        out, _ = wrk.communicate(timeout=ATTACK + 30)
    finally:
        script.unlink(missing_ok=True)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    counted = re.search(r"STATUS (\d+) (\d+)", out)
    refused, other = (int(counted.group(1)), int(counted.group(2))) if counted else (0, 0)
    share = refused / max(1, refused + other)
    flood = f"flood {float(rate.group(1)) if rate else 0:.0f} req/s, {share:.1%} refused"
    print(row(f"{label}: baseline", baseline))
    print(row(f"{label}: under flood", attacked, flood))


if __name__ == "__main__":
    main()
