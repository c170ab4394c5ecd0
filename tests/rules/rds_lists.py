"""Parameter lists in the shape `aws rds describe-engine-default-parameters --output json`
prints, made here from a result's own settings: test input shared by the renderer's, the CLI's
and the API's tests, not a claim about what RDS allows (no family's real list is published)."""

from typing import Any

from rules.output.result import Result

NOT_MODIFIABLE = "innodb_flush_method"
NOT_LISTED = "innodb_read_ahead_threshold"


def engine_defaults(result: Result, family: str = "mysql8.0") -> dict[str, Any]:
    """Every setting of `result` but NOT_LISTED, all modifiable but NOT_MODIFIABLE, plus one
    parameter no rule sets (a real list names hundreds)."""
    rows: list[dict[str, Any]] = [
        {
            "ParameterName": s.name,
            "Description": f"{s.name}, as RDS describes it",
            "Source": "engine-default",
            "ApplyType": "dynamic" if s.dynamic else "static",
            "DataType": "boolean" if s.value in ("ON", "OFF") else "string",
            "AllowedValues": "0,1" if s.value in ("ON", "OFF") else "",
            "IsModifiable": s.name != NOT_MODIFIABLE,
        }
        for s in result.settings
        if s.name != NOT_LISTED
    ]
    rows.append(
        {
            "ParameterName": "autocommit",
            "ParameterValue": "1",
            "ApplyType": "dynamic",
            "DataType": "boolean",
            "AllowedValues": "0,1",
            "IsModifiable": True,
        }
    )
    return {"EngineDefaults": {"DBParameterGroupFamily": family, "Parameters": rows}}
