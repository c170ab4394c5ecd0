"""Which lab ran each source: the author, or the organisation whose hosts and people ran it.

Leave-one-source-out scoring (calibration.fit) counts every post as independent, but one
author's posts share machines, builds, configuration habits and ways of reporting: a model that
has seen Callaghan's 2020 insert benchmark knows more about his 2021 one than about a new
author's. Leave-one-lab-out holds out every source of a lab at once (calibration.calibrate),
the yardstick for a machine from someone the data has never seen.

How each source was assigned: by the author and the address the bibliography gives it
(rules/data/sources.json `author` and `published`), which for every source below agree:

- Mark Callaghan: his blogs (mysqlha.blogspot.com, smalldatum.blogspot.com and their mirrors),
  his reports at mdcallag.github.io, his GitHub repository mdcallag/mytools and the
  google-mysql-tools wiki he wrote.
- Percona: posts on percona.com (Vadim Tkachenko, Roel Van de Paar; one signed "Percona") and
  the GitHub organisations Percona-Lab and Percona-Lab-results, whose runs share Percona's lab
  hosts (the 56-thread Xeon E5-2683 v3 server recurs across them); one organisation, as the
  issue names it (Percona Lab), not one lab per author.
- Axel Schwenke: his runs for MariaDB in GitHub hgxl64/mariadb-benchmarks and the posts on
  mariadb.org and mariadb.com that report them.
- Marko Mäkelä: his measurements in MariaDB's Jira (MDEV-28111, MDEV-28766), on his own
  machines; kept apart from Schwenke's, another person's machines and benchmark scripts,
  though both worked for MariaDB.
- Partha Dutta: his blog ralpartha.blogspot.com.
- InnoDB IO Advisor lab: this project's own sweeps (docs/lab.md, data/lab/README.md), one
  source per emulated machine (`lab-<host>-<limits>`), all on one host with one harness: one
  lab, so leave-one-lab-out holds every emulated machine out at once.

A source listed nowhere (an approved user submission, a result added later) is its own lab;
tests/calibration/test_labs.py holds every source of the shipped data to a lab listed here.
"""

from collections.abc import Iterable

LABS: dict[str, tuple[str, ...]] = {
    "Callaghan": (
        "callaghan-2008-insert",
        "callaghan-2009-2disk",
        "callaghan-2009-google-wiki",
        "callaghan-2011-insert-buffer",
        "callaghan-2011-odirect-log",
        "callaghan-2013-odirect-no-fsync",
        "callaghan-2020-ibench-aws-c3-40m",
        "callaghan-2020-ibench-aws-c3-cached",
        "callaghan-2020-ibench-aws-c3-io1",
        "callaghan-2020-ibench-nuc-innodb-configs",
        "callaghan-2021-ibench-nuc-cached",
        "callaghan-2021-ibench-nuc-versions",
        "callaghan-2024-sysbench-cached-beelink",
        "callaghan-2025-sysbench-cached-3-servers",
        "callaghan-2025-sysbench-cached-concurrency",
        "callaghan-2025-sysbench-cached-gcp-mariadb",
        "callaghan-2025-sysbench-cached-gtid",
        "callaghan-2025-sysbench-cached-mariadb-versions",
        "callaghan-2025-sysbench-cached-mysql-over-time",
        "callaghan-2025-sysbench-cached-socket2-versions",
        "callaghan-2026-sysbench-cached-hetzner-57",
    ),
    "Percona": (
        "percona-2009-raid-ssd-fusionio",
        "percona-2009-schedulers",
        "percona-2010-558-adaptive",
        "percona-2010-fast-storage",
        "percona-2010-max-write",
        "percona-2015-exflash",
        "percona-2016-big-log-file-size",
        "percona-2016-binlog-57-slower",
        "percona-2016-tpcc-samsung",
        "percona-2018-binlog-filesystems",
        "percona-2018-saving-myrocks-cloud",
        "percona-2018-scaling-io-bound-cloud",
        "percona-2018-scaling-io-bound-cloud-part2",
        "percona-2026-bp-sweep",
        "percona-lab-2016-oltp-rw-proxy-threadpool",
        "percona-lab-2016-pk-lookup-remote",
        "percona-lab-2018-meltdown-point-select",
        "percona-lab-2018-tpcc-innodb-ec2-gp2",
        "percona-lab-2018-tpcc-mysql8",
        "percona-lab-2021-myrocks-innodb-oltp-rw",
    ),
    "Schwenke": (
        "schwenke-2012-55-series-oltp",
        "schwenke-2013-mariadb-atomic-writes",
        "schwenke-2013-mysql-5610-mariadb-1001",
        "schwenke-2018-mdev-13845-innodb-pool",
    ),
    "Mäkelä": ("mariadb-mdev-28111", "mariadb-mdev-28766"),
    "Dutta": ("ralpartha-2011-all-o-direct",),
    "InnoDB IO Advisor lab": (
        "lab-vm-mem1g-cpu1-riops3000-wiops3000-rbps125m-wbps125m",
        "lab-vm-mem1g-cpu2",
        "lab-vm-mem1g-cpu2-riops300-wiops300",
        "lab-vm-mem2g-cpu1-riops3000-wiops3000-rbps125m-wbps125m",
        "lab-vm-mem2g-cpu2-riops3000-wiops3000-rbps125m-wbps125m",
        "lab-vm-mem2g-cpu2-riops300-wiops300",
        "lab-vm-mem512m-cpu1",
        "lab-vm-mem512m-cpu1-riops300-wiops300",
    ),
}
_LAB_OF = {source: lab for lab, sources in LABS.items() for source in sources}


def lab_of(source: str) -> str:
    """The lab that ran `source`; a source listed nowhere is its own lab."""
    return _LAB_OF.get(source, source)


def labs_of(sources: Iterable[str]) -> tuple[str, ...]:
    """lab_of for each source, in order."""
    return tuple(lab_of(source) for source in sources)
