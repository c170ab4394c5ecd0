"""fill(template, facts) writes what template.format_map(facts) writes."""

import string

import pytest

from rules.registry import all_rules
from rules.template import fill


def _templates() -> list[str]:
    return [
        text
        for rule in all_rules()
        for case in rule.cases.values()
        for text in (case.reason, case.explanation)
    ]


def test_it_fills_every_rule_template_as_str_format_does() -> None:
    for template in _templates():
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        facts: dict[str, object] = {name: f"<{name}>" for name in names}
        facts |= {"concurrency": 64}  # a number, formatted as str.format formats it
        assert fill(template, facts) == template.format_map(facts)


@pytest.mark.parametrize(
    "template",
    [
        "",
        "plain text",
        "{a}",
        "{a}{b} and {a}",
        "{{literal}} {a} }}{{",
        "{a:>6} {b!r}",  # a format spec or a conversion: str.format itself
        "{a.real} {c[0]}",
    ],
)
def test_it_fills_any_template_as_str_format_does(template: str) -> None:
    facts: dict[str, object] = {"a": 1.5, "b": "x", "c": [7]}
    assert fill(template, facts) == template.format_map(facts)


def test_a_missing_fact_raises_as_str_format_does() -> None:
    with pytest.raises(KeyError):
        fill("{missing} here", {})


def test_a_malformed_template_raises_as_str_format_does() -> None:
    with pytest.raises(ValueError, match="Single '}'"):
        fill("oops }", {})
