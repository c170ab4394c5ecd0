"""NUMA: interleave the server's memory across the nodes of a multi-node host."""

import functools

from rules.inputs.enums import Flavor
from rules.output.result import Evidence
from rules.rule import Case, Context, OsProposal, OsRule

# The unit names the distributions' packages install: mariadb.service for MariaDB; mysqld.service
# for MySQL and Percona Server on RHEL and its rebuilds (Debian and Ubuntu call it mysql.service).
SERVICE: dict[Flavor, str] = {
    Flavor.MYSQL: "mysqld.service",
    Flavor.PERCONA: "mysqld.service",
    Flavor.MARIADB: "mariadb.service",
}
DROP_IN_NAME = "60-innodb-io-advisor-numa.conf"
CHECK_COMMAND = "lscpu | grep -i '^NUMA node(s)'"
# interleave: spread the buffer pool over every node instead of filling the first node and then
# swapping there while others are free (cole-2010-numa-swap-insanity); MySQL's own answer is
# innodb_numa_interleave (mysql-manual-numa-interleave), which the variable catalog does not hold,
# so the policy is set on the service with systemd's NUMAPolicy= (rhel-8-systemd-numa), which
# works for every flavor and version.
POLICY = "interleave"


def compute(ctx: Context) -> tuple[OsProposal, ...]:
    return _proposals(ctx.profile.hardware.numa_nodes, ctx.profile.server.flavor)


@functools.cache  # nodes is 1 to 64 or None: at most 195 entries
def _proposals(nodes: int | None, flavor: Flavor) -> tuple[OsProposal, ...]:
    service = SERVICE[flavor]
    if nodes == 1:
        return ()
    mask = f"0-{(nodes or 2) - 1}"
    facts = {"value": POLICY, "service": service, "nodes": str(nodes), "mask": mask}
    if nodes is None:
        checks = (CHECK_COMMAND, "numactl --hardware")
        return (OsProposal("numa_policy", "check", service, "unknown", checks, "", "", facts),)
    lines = ("[Service]", f"NUMAPolicy={POLICY}", f"NUMAMask={facts['mask']}")
    directory = f"/etc/systemd/system/{service}.d"
    path = f"{directory}/{DROP_IN_NAME}"
    commands = (
        f"mkdir -p {directory}",
        "printf '%s\\n' " + " ".join(f"'{line}'" for line in lines) + f" > {path}",
        f"systemctl daemon-reload && systemctl restart {service}   # restarts the server",
        f"numastat -p $(systemctl show -p MainPID --value {service})",
    )
    drop_in = "\n".join(lines)
    case = "mariadb" if flavor is Flavor.MARIADB else "mysql"
    return (OsProposal("numa_policy", POLICY, service, case, commands, drop_in, path, facts),)


_WHAT = (
    "On a host with several NUMA nodes each CPU socket has its own memory. By default a process "
    "takes memory from its own node first, so a buffer pool larger than one node fills that node "
    "and the kernel starts swapping or reclaiming there while other nodes sit free. "
)
_SYSTEMD = (
    "The systemd drop-in makes the service start with the {value} policy over nodes {mask}, "
    "so the buffer pool is spread evenly; takes effect at the next restart of {service}."
)
_EV_COLE = Evidence(
    "cole-2010-numa-swap-insanity",
    "On a two-node server a 48 GB buffer pool filled node 0 and Linux swapped there while node "
    "1 had memory free; starting mysqld under numactl --interleave=all spread it evenly.",
)
_EV_SYSTEMD = Evidence(
    "rhel-8-systemd-numa",
    "systemd's NUMAPolicy= sets a service's NUMA memory policy (default, preferred, bind, "
    "interleave, local) over the nodes NUMAMask= lists.",
)
_EV_MYSQL = Evidence(
    "mysql-manual-numa-interleave",
    "innodb_numa_interleave allocates the buffer pool with the interleave policy, on MySQL "
    "builds with NUMA support.",
)
_EV_MARIADB = Evidence(
    "mariadb-docs-numa-interleave",
    "innodb_numa_interleave was removed in MariaDB 10.2.23, 10.3.14 and 10.4.4 and is not "
    "present in 10.5 and later.",
)
RULE = OsRule(
    id="numa-interleave-multi-node",
    setting="numa_policy",
    cases={
        "mysql": Case(
            "{value} over {nodes} NUMA nodes, so the buffer pool does not fill one node",
            _WHAT
            + _SYSTEMD
            + " MySQL and Percona Server also offer innodb_numa_interleave=ON, which "
            "interleaves only the buffer pool; the service policy covers every build.",
            (_EV_COLE, _EV_SYSTEMD, _EV_MYSQL),
        ),
        "mariadb": Case(
            "{value} over {nodes} NUMA nodes, so the buffer pool does not fill one node",
            _WHAT + _SYSTEMD + " MariaDB's current releases have no innodb_numa_interleave "
            "(it went in 10.4.4), so the service policy is the way.",
            (_EV_COLE, _EV_SYSTEMD, _EV_MARIADB),
        ),
        "unknown": Case(
            "check lscpu: with 2 or more NUMA nodes, interleave the server's memory",
            _WHAT + "The profile does not say how many nodes this host has: if lscpu shows 2 "
            "or more, give hardware.numa_nodes to get a systemd drop-in for {service} with "
            "NUMAPolicy=interleave.",
            (_EV_COLE, _EV_SYSTEMD),
        ),
    },
    compute=compute,
)
