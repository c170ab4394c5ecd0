"""The bibliography loads, validates itself, and covers every source the calibration data cites."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from rules.reference.bibliography import KINDS, _validate, all_sources, has_source, source

_REPO = Path(__file__).resolve().parents[3]
_SHARED = _REPO.parent / "shared"
_BENCHMARKS = _SHARED / "data" / "benchmarks.csv"  # the shared original, with its titles
_SEEDS_DIR = _SHARED / "seeds"

# Keys the rule engine already cites, with the S-number of calibration-notes.md where there is one.
REQUIRED: dict[str, str | None] = {
    "callaghan-2009-2disk": "S1",
    "callaghan-2008-insert": None,
    "tokutek-2009-iibench": "S2",
    "percona-2008-xtradb-iobound": "S3",
    "callaghan-2011-odirect-log": "S4",
    "percona-2009-readahead": "S5",
    "callaghan-2009-google-wiki": "S6",
    "percona-2009-schedulers": "S7",
    "percona-2009-54-iobound": "S8",
    "percona-2009-raid-ssd-fusionio": "S9",
    "percona-2010-fast-storage": "S10",
    "percona-2010-558-adaptive": "S11",
    "percona-2010-max-write": "S13",
    "percona-2009-54-inmemory": "S14",
    "percona-2010-554-tpcc": "S15",
    "percona-2012-567-tpcc": "S16",
    "ralpartha-2011-all-o-direct": "S18",
    "callaghan-2011-insert-buffer": "S20",
    "percona-2016-tpcc-samsung": "S23",
    "percona-2026-bp-sweep": "S24",
    "vadim-2015-linkbench": "S25",
    "percona-2012-intel320": "S26",
    "percona-2015-exflash": "S27",
    "mariadb-mdev-28766": "S28",
    "mariadb-mdev-28111": "S28",
    "callaghan-2013-odirect-no-fsync": "S29",
    # device facts (calibration-notes section 3)
    "percona-2010-fsync-rate": None,
    "percona-2010-fusionio-raid": None,
    "percona-2009-x25e-barrier": None,
    "percona-2013-micron-p320h": None,
    "ssdperformanceblog-2011-intel320": None,
    "mysql-manual-io-capacity": None,
    "greg-smith-2010-pg-high-performance": None,
    "yonkovit-2008-raptor-ssd": None,
    "matsunobu-2010-ssd-deployment": None,
    "ksiazek-2011-sas-raid10": None,
    "serverfault-raid5-database": None,
    "callaghan-2017-redo-log": None,
    # rules of thumb (calibration-notes section 5) and platform documentation
    "mysql-manual-io-threads": None,
    "mysql-manual-flush-method": None,
    "mysql-manual-buffer-pool": None,
    "mysql-manual-redo-log": None,
    "mysql-manual-dedicated-server": None,
    "mysql-manual-io-scheduler": None,
    "mysql-manual-read-ahead": None,
    "mysql-manual-8-4-defaults": None,
    "mysql-wl-9630": None,
    "mysql-wl-9631": None,
    "mysql-wl-9707": None,
    "mysql-wl-4967": None,
    "baron-2008-log-size": None,
    "percona-log-file-size-recovery": None,
    "yasufumi-2008-adaptive-checkpoint": None,
    "percona-2019-ssd-io-capacity": None,
    "percona-2012-flush-neighbors": None,
    "hpm-2012": None,
    "dimitri-2012-schedulers": None,
    "domas-2007-deadline": None,
    "mariadb-mdev-24854": None,
    "mariadb-docs-flush-method": None,
    "mariadb-docs-log-file-size": None,
    "yves-2014-doublewrite": None,
    "callaghan-2009-v4-cpu": None,
    "linux-kernel-blk-mq": None,
    "linux-kernel-queue-sysfs": None,
    "mysql-manual-memory": None,
    "mariadb-docs-flush-log-at-trx-commit": None,
    "mysql-manual-sync-binlog": None,
}

# (key, seed file, figures its findings must carry)
SEEDS = [
    (
        "callaghan-2009-2disk",
        "000_7c468d40db4ffd95.txt",
        ("250", "1294", "2112", "2836", "3024", "3854", "2 SATA", "innodb_max_dirty_pages_pct"),
    ),
    (
        "callaghan-2008-insert",
        "001_4a7a7ed199463e71.txt",
        (
            "4 IOs",
            "1000 IOPS",
            "250 rows/s",
            "4:1",
            "8:1",
            "1800 rows/s",
            "innodb_io_capacity=1000",
        ),
    ),
    (
        "percona-2008-xtradb-iobound",
        "002_60685e9784e568c9.txt",
        ("1.5x", "4x", "noop", "CFQ", "6-disk RAID10", "40 warehouses"),
    ),
    (
        "callaghan-2011-odirect-log",
        "003_047cb6db1e00db23.txt",
        ("1952", "3829", "1608", "4698", "all_direct", "1.7G"),
    ),
    (
        "percona-2009-readahead",
        "004_7a14ee754d3566f2.txt",
        ("about 15%", "innodb_read_ahead=none", "8-disk RAID10", "25%", "single HDD"),
    ),
]

# benchmarks.csv titles that are not the title of a bibliography entry, mapped to their sources.
BENCHMARK_TITLE_TO_KEYS: dict[str, tuple[str, ...]] = {
    "InnoDB insert performance / iiBench contest results": (
        "tokutek-2009-iibench",
        "callaghan-2008-insert",
    ),
    "InnodbIoOltpDisk (disk-bound tpcc-mysql)": ("callaghan-2009-google-wiki",),
    "InnodbIoPrefetch (read-ahead on/off)": ("callaghan-2009-google-wiki",),
    "InnodbIoInsert (insert benchmark)": ("callaghan-2009-google-wiki",),
    "InnodbIoOltpMemory (cached tpcc-mysql, same hardware)": ("callaghan-2009-google-wiki",),
    "Insert Buffer (Mark Callaghan note, Feb 2011)": ("callaghan-2011-insert-buffer",),
}

_URL_RE = re.compile(r"https?://[^\s;()]+")


def _normalise(title: str) -> str:
    return re.sub(r"\s+", " ", title.replace("–", "-")).strip().casefold()


def _benchmark_rows() -> list[dict[str, str]]:
    with _BENCHMARKS.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _keys_for_title(title: str) -> tuple[str, ...]:
    by_title = tuple(s.key for s in all_sources() if _normalise(s.title) == _normalise(title))
    return by_title or BENCHMARK_TITLE_TO_KEYS.get(title, ())


def _entry(**overrides: object) -> dict[str, object]:
    entry: dict[str, object] = {
        "key": "example-2020-source",
        "author": "A. Author",
        "title": "A title",
        "date": "2020-01-02",
        "published": "A blog",
        "kind": "article",
        "seed": None,
        "notes_ref": "S1",
        "findings": ["It measured 100 IOPS."],
    }
    entry.update(overrides)
    return entry


@pytest.mark.parametrize("key", sorted(REQUIRED))
def test_every_key_the_engine_cites_resolves(key: str) -> None:
    assert has_source(key)
    assert source(key).key == key


@pytest.mark.parametrize(("key", "ref"), [(k, r) for k, r in REQUIRED.items() if r is not None])
def test_it_records_the_calibration_note_number(key: str, ref: str) -> None:
    assert source(key).notes_ref == ref


@pytest.mark.parametrize(("key", "seed", "figures"), SEEDS)
def test_each_seed_is_present_with_its_file_and_key_figures(
    key: str, seed: str, figures: tuple[str, ...]
) -> None:
    entry = source(key)
    assert entry.seed == seed
    text = " ".join(entry.findings)
    missing = [f for f in figures if f not in text]
    assert not missing, f"{key} findings lack {missing}"


def test_exactly_the_five_seeds_are_marked_as_seeds() -> None:
    assert {s.key for s in all_sources() if s.seed} == {key for key, _, _ in SEEDS}


@pytest.mark.parametrize(("key", "seed", "figures"), SEEDS)
def test_seed_findings_are_paraphrased_not_copied(
    key: str, seed: str, figures: tuple[str, ...]
) -> None:
    path = _SEEDS_DIR / seed
    original = " ".join(path.read_text(encoding="utf-8").split()).casefold()
    for finding in source(key).findings:
        words = finding.casefold().split()
        runs = (" ".join(words[i : i + 10]) for i in range(len(words) - 9))
        copied = [run for run in runs if run in original]
        assert not copied, f"{key} copies the seed verbatim: {copied[0]!r}"


def test_every_benchmark_title_maps_to_a_source() -> None:
    titles = sorted({row["source_title"] for row in _benchmark_rows()})
    unmapped = [title for title in titles if not _keys_for_title(title)]
    assert not unmapped, f"benchmarks.csv titles without a bibliography entry: {unmapped}"


@pytest.mark.parametrize(("title", "keys"), sorted(BENCHMARK_TITLE_TO_KEYS.items()))
def test_the_explicit_title_mapping_points_at_real_sources(
    title: str, keys: tuple[str, ...]
) -> None:
    assert all(has_source(key) for key in keys), title


def test_every_benchmark_url_is_quoted_in_its_source() -> None:
    missing = []
    for row in _benchmark_rows():
        match = _URL_RE.search(row["source_url_or_ref"])
        if match is None:
            continue
        url = match.group(0)
        published = [source(key).published for key in _keys_for_title(row["source_title"])]
        if not any(url in text for text in published):
            missing.append((row["source_title"], url))
    assert not missing, (
        f"sources that do not quote their benchmarks.csv URL: {sorted(set(missing))}"
    )


def test_all_sources_are_sorted_by_key_and_unique() -> None:
    keys = [s.key for s in all_sources()]
    assert keys == sorted(keys)
    assert len(keys) == len(set(keys))


def test_every_entry_is_well_formed() -> None:
    for entry in all_sources():
        assert entry.kind in KINDS, entry.key
        assert entry.findings, entry.key


def test_every_finding_is_a_single_sentence() -> None:
    offenders = [
        (s.key, finding)
        for s in all_sources()
        for finding in s.findings
        if not finding.endswith(".") or re.search(r"[.!?]\s+[A-Z]", finding)
    ]
    assert not offenders, offenders


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        (
            "percona-2009-schedulers",
            "Vadim Tkachenko, “Linux schedulers in tpcc like benchmark”, 2009-01-30, Percona blog, "
            "https://www.percona.com/blog/2009/01/30/linux-schedulers-in-tpcc-like-benchmark/.",
        ),
        (
            "mysql-manual-io-capacity",
            "MySQL documentation team (Oracle), “Configuring InnoDB I/O Capacity”, n.d., "
            "MySQL 8.0 Reference Manual, section 17.8.7 'Configuring InnoDB I/O Capacity', "
            "https://dev.mysql.com/doc/refman/8.0/en/innodb-configuring-io-capacity.html.",
        ),
    ],
)
def test_a_citation_is_one_line_with_author_title_date_and_place(key: str, expected: str) -> None:
    assert source(key).citation() == expected


def test_an_unknown_key_raises_a_key_error_naming_it() -> None:
    assert not has_source("no-such-source")
    with pytest.raises(KeyError, match="no-such-source"):
        source("no-such-source")


def test_the_loader_accepts_a_well_formed_list() -> None:
    loaded = _validate([_entry(key="b-source"), _entry(key="a-source", date=None)])
    assert [s.key for s in loaded] == ["a-source", "b-source"]
    assert loaded[1].findings == ("It measured 100 IOPS.",)


def test_the_loader_rejects_a_duplicate_key() -> None:
    with pytest.raises(ValueError, match=r"duplicate key 'dup-key'.*source #0"):
        _validate([_entry(key="dup-key"), _entry(key="other"), _entry(key="dup-key")])


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"key": "Not_Kebab"}, "not kebab-case"),
        ({"key": "trailing-"}, "not kebab-case"),
        ({"author": ""}, "'author'"),
        ({"title": "   "}, "'title'"),
        ({"published": None}, "'published'"),
        ({"findings": []}, "'findings'"),
        ({"findings": [""]}, "finding #0"),
        ({"kind": "tweet"}, "kind 'tweet'"),
        ({"date": "June 2009"}, "'date'"),
        ({"notes_ref": "7"}, "'notes_ref'"),
    ],
)
def test_the_loader_rejects_a_malformed_entry_and_names_it(
    override: dict[str, object], message: str
) -> None:
    bad = _entry(**override)
    with pytest.raises(ValueError, match=re.escape(message)) as raised:
        _validate([_entry(key="good-one"), bad])
    assert "source #1" in str(raised.value)


# Paths inside this project or its shared data never reach a reader (the sources page, the API,
# every result's evidence).
_INTERNAL_PATH = re.compile(
    r"shared/|calibration-notes|seeds/|rules/(settings|devices|data)|tests/"
)
_WEB_ADDRESS = re.compile(r"^https?://[A-Za-z0-9.-]+\.[A-Za-z]{2,}(/|$)")


@pytest.mark.parametrize("entry", all_sources(), ids=lambda entry: entry.key)
def test_every_source_shown_resolves_to_an_address_a_reader_can_open(entry) -> None:
    shown = f"{entry.author} {entry.title} {entry.published}"
    assert "not recorded" not in shown
    assert not _INTERNAL_PATH.search(entry.published), entry.published
    if entry.kind in ("assumption", "lab"):  # this project's own judgement or measurements
        return
    addresses = _URL_RE.findall(entry.published)
    assert addresses, f"{entry.key}: no URL in {entry.published!r}"
    assert all(_WEB_ADDRESS.match(address) for address in addresses), addresses
    if entry.kind != "benchmark-repo":  # a data repository has no title of its own
        assert not entry.title.startswith("["), entry.title


def test_manual_entries_name_their_version() -> None:
    unversioned = [
        s.key
        for s in all_sources()
        if s.kind == "manual"
        and "Reference Manual" in s.published
        and not re.search(r"\b(5\.[5-7]|8\.[0-4]|9\.[0-9]+)\b", s.published)
    ]
    assert not unversioned
