"""Kubernetes operators: the configuration block of each operator's custom resource, as a merge
patch of its `spec` (`kubectl patch <kind> <name> --type merge --patch-file <file>`).

* Percona Operator for MySQL, `PerconaServerMySQL.spec.mysql.configuration` (ps.percona.com/v1)
* MySQL Operator for Kubernetes, `InnoDBCluster.spec.mycnf` (mysql.oracle.com/v2)
* MariaDB Operator, `MariaDB.spec.myCnf` (k8s.mariadb.com/v1alpha1)

Each is a my.cnf fragment in a literal block. The Percona Operator runs the fragment through its
template engine with `containerMemoryLimit` (deploy/cr.yaml of percona-server-mysql-operator
v1.2.0 shows `innodb_buffer_pool_size={{containerMemoryLimit * 3/4}}`), so there the buffer pool
is written as the fraction of the container's memory limit that the advice gave it of the
profile's memory (its memory limit, or its RAM without one): with that limit the operator writes
the recommended bytes exactly (see rules.render.memory_share for how it computes). The other two
take the values as they are. The vendored CRDs these validate against: rules/data/vendor/k8s/.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from rules.output.result import Result, Setting
from rules.render.deploy import (
    MYSQL_FAMILY,
    deploy_header,
    deploy_settings,
    mycnf_body,
    require_flavor,
)
from rules.render.memory_share import (
    BUFFER_POOL,
    pool_fraction,
)
from rules.render.yamltext import Literal, Node, dump
from rules.units import bytes_for_people


@dataclass(frozen=True, slots=True)
class Operator:
    tool: str
    runs: str
    flavors: frozenset[str]
    api_version: str
    kind: str
    path: tuple[str, ...]  # under spec, to the configuration string
    group: str  # the my.cnf group the fragment opens
    memory_template: bool  # the operator templates containerMemoryLimit


PERCONA = Operator(
    tool="The Percona Operator for MySQL",
    runs="Percona Server for MySQL",
    flavors=MYSQL_FAMILY,
    api_version="ps.percona.com/v1",
    kind="PerconaServerMySQL",
    path=("mysql", "configuration"),
    group="mysqld",
    memory_template=True,
)
MYSQL_OPERATOR = Operator(
    tool="The MySQL Operator for Kubernetes",
    runs="MySQL",
    flavors=MYSQL_FAMILY,
    api_version="mysql.oracle.com/v2",
    kind="InnoDBCluster",
    path=("mycnf",),
    group="mysqld",
    memory_template=False,
)
MARIADB_OPERATOR = Operator(
    tool="The MariaDB Operator",
    runs="MariaDB",
    flavors=frozenset({"mariadb"}),
    api_version="k8s.mariadb.com/v1alpha1",
    kind="MariaDB",
    path=("myCnf",),
    group="mariadb",
    memory_template=False,
)


def render_k8s_percona(result: Result, *, base_url: str = "") -> str:
    return render_operator(result, PERCONA, base_url=base_url)


def render_k8s_mysql_operator(result: Result, *, base_url: str = "") -> str:
    return render_operator(result, MYSQL_OPERATOR, base_url=base_url)


def render_k8s_mariadb_operator(result: Result, *, base_url: str = "") -> str:
    return render_operator(result, MARIADB_OPERATOR, base_url=base_url)


def render_operator(result: Result, operator: Operator, *, base_url: str = "") -> str:
    """The `spec` merge patch for `operator`; raises OutputRefused for another flavor."""
    settings = deploy_settings(result)
    require_flavor(result, operator.flavors, operator.tool, operator.runs)
    values, memory_note = _memory(result, settings, operator)
    field = "spec." + ".".join(operator.path)
    use = [
        f"{operator.tool}: {operator.kind} ({operator.api_version}), {field}.",
        f"Apply: kubectl patch {operator.kind.lower()} NAME --type merge --patch-file FILE",
        "(or copy the block into the resource); the operator restarts the pods to apply it.",
        *memory_note,
    ]
    header = deploy_header(result, f"{operator.kind} {field}", use, base_url=base_url)
    block: Node = Literal(mycnf_body(settings, group=operator.group, values=values))
    for key in reversed(operator.path):
        block = {key: block}
    return dump({"spec": block}, header=header)


def _memory(
    result: Result, settings: Sequence[Setting], operator: Operator
) -> tuple[dict[str, str], list[str]]:
    """With a templating operator, the buffer pool as a fraction of the container's memory limit
    (the value to write instead), and the header line saying what memory the pool was sized for."""
    if not any(s.name == BUFFER_POOL for s in settings):
        return {}, []
    memory = result.profile.hardware.memory_bytes
    sized_for = _memory_words(result, memory)
    fraction = pool_fraction(result, memory) if operator.memory_template else None
    if fraction is None:
        note = f"{BUFFER_POOL} assumes the pod's memory limit is {sized_for}; size it with it."
        return {}, [note]
    numerator, denominator = fraction
    value = f"{{{{containerMemoryLimit * {numerator}/{denominator}}}}}"
    return {BUFFER_POOL: value}, [
        f"{BUFFER_POOL} is {numerator}/{denominator} of the container's memory limit, the share "
        f"of {sized_for} recommended."
    ]


def _memory_words(result: Result, memory: int | None) -> str:
    """What the pool was sized for: "the profile's RAM", or "the profile's memory limit (24 GiB)"
    when a limit below the RAM took its place."""
    if memory is None or not result.profile.hardware.is_memory_limited:
        return "the profile's RAM"
    return f"the profile's memory limit ({bytes_for_people(memory)})"
