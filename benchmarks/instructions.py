"""The work callgrind counts per recommendation: run under `benchmarks/instructions.sh`.

`python benchmarks/instructions.py PHASE ROUNDS` warms every cache with one pass over the engine
benchmark's three scenarios, then runs ROUNDS more passes of PHASE:

  all   parse + recommend (with the calibrated estimate) + the JSON result, as the API does
  json  the JSON result alone, of results built before the rounds

instructions.sh runs it under callgrind with 0 and with ROUNDS rounds; the difference divided by
3 x ROUNDS is one recommendation's count, without the interpreter's start-up and the imports.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine import ESTIMATOR, SCENARIOS
from rules.engine import recommend
from rules.inputs.validation import parse_profile
from rules.render.jsonout import result_to_dict


def main() -> None:
    phase, rounds = sys.argv[1], int(sys.argv[2])
    raws = list(SCENARIOS.values())
    results = [recommend(parse_profile(raw), estimator=ESTIMATOR) for raw in raws]
    for result in results:
        result_to_dict(result, base_url="https://example.com")
    if phase == "all":
        for _ in range(rounds):
            for raw in raws:
                result_to_dict(
                    recommend(parse_profile(raw), estimator=ESTIMATOR),
                    base_url="https://example.com",
                )
    elif phase == "json":
        for _ in range(rounds):
            for result in results:
                result_to_dict(result, base_url="https://example.com")
    else:
        raise SystemExit(f"unknown phase {phase!r}: all or json")


if __name__ == "__main__":
    main()
