"""The Kubernetes exports validate against each operator's published CRD (vendored in
rules/data/vendor/k8s/): the patch alone against the schema without its required fields (a merge
patch leaves them out), and merged into the operator's own example resource against the whole
schema. The configuration block holds the my.cnf export's values."""

from __future__ import annotations

import configparser
import copy
import functools
import hashlib
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from rules.engine import recommend
from rules.inputs.enums import Flavor
from rules.inputs.errors import OutputRefused
from rules.inputs.validation import parse_profile
from rules.output.result import Result
from rules.render import render
from scripts.make_golden import profile_paths

VENDOR = Path(__file__).resolve().parents[3] / "rules" / "data" / "vendor"
K8S = VENDOR / "k8s"
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# format -> (CRD file, CRD name, example resource, path to the configuration string)
OPERATORS = {
    "k8s-percona": (
        "percona-server-mysql-operator-1.2.0-crd.yaml",
        "perconaservermysqls.ps.percona.com",
        "percona-server-mysql-operator-1.2.0-cr.yaml",
        ("spec", "mysql", "configuration"),
    ),
    "k8s-mysql-operator": (
        "mysql-operator-9.1.0-2.2.2-deploy-crds.yaml",
        "innodbclusters.mysql.oracle.com",
        "mysql-operator-9.1.0-2.2.2-sample-cluster.yaml",
        ("spec", "mycnf"),
    ),
    "k8s-mariadb-operator": (
        "mariadb-operator-26.6.0-mariadbs-crd.yaml",
        "mariadbs.k8s.mariadb.com",
        "mariadb-operator-26.6.0-sample-mariadb.yaml",
        ("spec", "myCnf"),
    ),
}
FLAVORS = {
    "k8s-percona": {"mysql", "percona"},
    "k8s-mysql-operator": {"mysql", "percona"},
    "k8s-mariadb-operator": {"mariadb"},
}


@functools.cache
def crd_schema(filename: str, name: str) -> dict[str, Any]:
    text = (K8S / filename).read_text(encoding="utf-8")
    for document in yaml.load_all(text, Loader=Loader):
        if document and document.get("metadata", {}).get("name") == name:
            version = next(v for v in document["spec"]["versions"] if v.get("storage"))
            return version["schema"]["openAPIV3Schema"]
    raise AssertionError(f"{name} not in {filename}")


@functools.cache
def validators(filename: str, name: str) -> tuple[Any, Any]:
    """(the whole schema, the schema without required fields), each checked once."""
    schema = crd_schema(filename, name)
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft7Validator)
    cls.check_schema(schema)
    return cls(schema), cls(without_required(schema))


def without_required(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: without_required(v) for k, v in schema.items() if k != "required"}
    if isinstance(schema, list):
        return [without_required(v) for v in schema]
    return schema


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386, as `kubectl patch --type merge` applies it."""
    if not isinstance(patch, dict):
        return patch
    merged = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged


def golden_results() -> list[tuple[str, Result]]:
    return [
        (path.stem, recommend(parse_profile(yaml.safe_load(path.read_text(encoding="utf-8")))))
        for path in profile_paths()
    ]


RESULTS = golden_results()


def section_values(text: str) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.read_string(text)
    (section,) = parser.sections()
    return dict(parser[section])


def dig(document: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


@pytest.mark.parametrize("fmt", sorted(OPERATORS))
@pytest.mark.parametrize(("name", "result"), RESULTS, ids=[n for n, _ in RESULTS])
def test_each_operator_block_validates_against_its_crd(fmt: str, name: str, result: Result):
    crd_file, crd_name, example_file, path = OPERATORS[fmt]
    flavor = result.profile.server.flavor.value
    if flavor not in FLAVORS[fmt]:
        with pytest.raises(OutputRefused, match="runs"):
            render(result, fmt)
        return
    text = render(result, fmt, base_url="https://advisor.example")
    patch = yaml.safe_load(text)
    whole, partial = validators(crd_file, crd_name)
    partial.validate(patch)
    example = yaml.safe_load((K8S / example_file).read_text(encoding="utf-8"))
    whole.validate(example)  # the operator's own example is valid as vendored
    merged = merge_patch(example, patch)
    whole.validate(merged)
    assert set(patch) == {"spec"}

    block = dig(merged, path)
    assert isinstance(block, str)
    ours, mycnf = section_values(block), section_values(render(result, "mycnf"))
    pool = "innodb_buffer_pool_size"
    if fmt == "k8s-percona" and pool in ours:
        numerator, denominator = re.fullmatch(
            r"\{\{containerMemoryLimit \* (\d+)/(\d+)\}\}", ours.pop(pool)
        ).groups()  # type: ignore[union-attr]
        memory = result.profile.hardware.memory_bytes  # the limit the pool was sized for
        share = memory * int(numerator) // int(denominator)
        assert share == result.setting(pool).value  # type: ignore[union-attr]
        mycnf.pop(pool)
    assert ours == mycnf


def test_a_value_cannot_open_a_template_in_the_percona_operator() -> None:
    """pongo2 templates the whole block: a reason echoing `{{ ... }}` must not reach it whole."""
    result = next(r for _, r in RESULTS if r.profile.server.flavor is Flavor.MYSQL)
    first = result.settings[0]
    assert first.written
    hostile = replace(first, reason="{{ containerMemoryLimit }} {% if x %}{# c #}")
    result = replace(result, settings=(hostile, *result.settings[1:]))
    block = yaml.safe_load(render(result, "k8s-percona"))["spec"]["mysql"]["configuration"]
    ours = block.replace("{{containerMemoryLimit *", "")
    assert [start for start in ("{{", "{%", "{#") if start in ours] == []
    assert "{ {" in block


def test_the_vendored_files_are_the_ones_the_readme_names() -> None:
    readme = (VENDOR / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Kubernetes operators", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^([0-9a-f]{64})  (\S+)$", section, re.M)
    listed = {name: digest for digest, name in rows}
    on_disk = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in K8S.iterdir()}
    assert listed == on_disk


def test_an_example_resource_missing_a_required_field_fails_the_schema() -> None:
    crd_file, crd_name, example_file, _ = OPERATORS["k8s-mysql-operator"]
    example = yaml.safe_load((K8S / example_file).read_text(encoding="utf-8"))
    broken = copy.deepcopy(example)
    del broken["spec"]["secretName"]  # the CRD requires it
    with pytest.raises(jsonschema.ValidationError):
        validators(crd_file, crd_name)[0].validate(broken)
