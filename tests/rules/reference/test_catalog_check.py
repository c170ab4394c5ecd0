from rules.inputs.enums import Flavor
from rules.inputs.version import ServerVersion, parse_version
from rules.reference.catalog import catalog_for
from rules.reference.catalog_check import ServerHelp, compare_with_mariadbd, parse_mariadbd_help

MARIADB = Flavor.MARIADB


def v(text: str) -> ServerVersion:
    version = parse_version(text)
    assert version is not None
    return version


HELP_SAMPLE = """\
mariadbd  Ver 10.11.19-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)
  --innodb-flush-method=name
                      With which method to flush data.. One of: fsync, O_DSYNC,
                      littlesync, nosync, O_DIRECT, O_DIRECT_NO_FSYNC
  --innodb-doublewrite
                      Enable InnoDB doublewrite buffer (enabled by default).
                      (Defaults to on; use --skip-innodb-doublewrite to disable.)

Variables (--variable-name=value)
and boolean options {FALSE|TRUE}                             Value (after reading options)
------------------------------------------------------------ -------------
innodb-doublewrite                                           TRUE
innodb-flush-method                                          O_DIRECT
wsrep-OSU-method                                             TOI

To see what variables a running server is using, type
"""


def test_the_help_parser_reads_values_and_enum_lists() -> None:
    server = parse_mariadbd_help(HELP_SAMPLE)
    assert server.version == ServerVersion(10, 11, 19)
    assert server.values["innodb_flush_method"] == "O_DIRECT"
    assert server.values["innodb_doublewrite"] == "TRUE"
    assert server.values["wsrep_OSU_method"] == "TOI"
    assert server.choices["innodb_flush_method"] == (
        "fsync", "O_DSYNC", "littlesync", "nosync", "O_DIRECT", "O_DIRECT_NO_FSYNC",
    )  # fmt: skip


def _help_from_catalog(version: str) -> dict[str, str]:
    catalog = catalog_for(MARIADB, v(version))
    printed = {}
    for name in catalog.names():
        spec = catalog.get(name)
        assert spec is not None
        default = "4294967295" if spec.default is None else str(spec.default)
        printed[name] = {"ON": "TRUE", "OFF": "FALSE"}.get(default, default)
    return printed


def test_the_server_comparison_reports_each_kind_of_disagreement() -> None:
    printed = _help_from_catalog("10.11.19")
    assert compare_with_mariadbd(ServerHelp(v("10.11.19"), printed, {})) == []
    printed["innodb_io_capacity"] = "300"
    printed["innodb_doublewrite"] = "FALSE"
    del printed["innodb_flush_method"]
    printed["innodb_page_cleaners"] = "4"
    choices = {"innodb_change_buffering": ("none", "all")}
    found = {
        (d.name, d.field)
        for d in compare_with_mariadbd(ServerHelp(v("10.11.19"), printed, choices))
    }
    assert found == {
        ("innodb_io_capacity", "default"),
        ("innodb_doublewrite", "default"),
        ("innodb_flush_method", "exists"),
        ("innodb_page_cleaners", "exists"),
        ("innodb_change_buffering", "values"),
    }
