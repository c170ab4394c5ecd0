"""The recommended buffer pool as a fraction of a memory size, for the tools that size it from the
memory they give the server: RDS and Aurora's `{DBInstanceClassMemory*3/4}` and the Percona
Operator's `{{containerMemoryLimit * 3/4}}`.

Both evaluate `memory * numerator / denominator` from left to right in whole numbers, the
division truncating:

* RDS: "Divides the dividend by the divisor, returning an integer quotient. Decimals in the
  quotient are truncated" (RDS User Guide, "DB parameter formula operators", vendored in
  rules/data/vendor/aws/USER_ParamValuesRef.md).
* The Percona Operator executes the configuration as a pongo2 template with
  `containerMemoryLimit` set to the pod's memory limit (its request without one) in bytes,
  `resource.Quantity.Value()`, an int64 (percona-server-mysql-operator v1.2.0,
  https://github.com/percona/percona-server-mysql-operator/blob/v1.2.0/pkg/mysql/config.go and
  pkg/k8s/configuration.go). pongo2 (github.com/flosch/pongo2
  v0.0.0-20200913210552-0d938eb266f3, the operator's go.mod) parses `a * b / c` as `(a * b) / c`
  and, for two integers, returns `f1.Integer() * f2.Integer()` and `f1.Integer() /
  f2.Integer()`, Go's `int` arithmetic (parser_expression.go, `parseTerm` and `term.Evaluate`,
  https://github.com/flosch/pongo2/blob/0d938eb266f3/parser_expression.go).

So the fraction is the pool over the memory in lowest terms: the tool's arithmetic then gives the
pool back to the byte when the memory is the one the advice was sized for, and the same share of
another size.
"""

import math

from rules.inputs.field_spec import input_fields
from rules.inputs.profile import Profile
from rules.output.result import Result
from rules.units import GIB

BUFFER_POOL = "innodb_buffer_pool_size"
# Go's int is 64 bits on the platforms the operator ships for (amd64, arm64); RDS does not say
# how wide its integers are, so the same bound is kept there.
INT64_MAX = 2**63 - 1
# The largest memory a profile can state (the RAM and memory-limit fields' maxima): the product
# `memory * numerator` must not overflow for any pod or instance a profile could describe.
LARGEST_MEMORY_BYTES = int(
    max(
        spec.maximum or 0
        for spec in input_fields(Profile)
        if spec.path in ("hardware.ram_gb", "hardware.memory_limit_gb")
    )
    * GIB
)


def pool_fraction(result: Result, memory_bytes: int | None) -> tuple[int, int] | None:
    """(numerator, denominator): the buffer pool over `memory_bytes` in lowest terms; None
    without a pool or memory, past the memory, or when `memory * numerator` could overflow."""
    setting = result.setting(BUFFER_POOL)
    if setting is None or not isinstance(setting.value, int) or isinstance(setting.value, bool):
        return None
    if memory_bytes is None or not 0 < setting.value <= memory_bytes:
        return None
    divisor = math.gcd(setting.value, memory_bytes)
    numerator, denominator = setting.value // divisor, memory_bytes // divisor
    if numerator * LARGEST_MEMORY_BYTES > INT64_MAX:
        return None
    return numerator, denominator
