"""Fleet files: the API's JSON, or a CSV with a column per profile field."""

from __future__ import annotations

import json

import pytest

from advisor.fleet.services import BatchInvalid
from advisor.fleet.upload import CSV_COLUMNS, entries_from_upload
from rules.inputs.examples import raw_profile
from rules.inputs.validation import parse_profile

CSV = (
    "name,server.flavor,server.version,hardware.ram_gb,hardware.cpu_cores,"
    "hardware.storage.media,hardware.storage.device_count,hardware.storage.raid_level,"
    "workload.kind,workload.data_size_gb,workload.concurrency\n"
    "db1,mysql,8.0.36,64,16,nvme,2,raid1,oltp,200,64\n"
    "db2,mariadb,10.11,0.5,1,hdd,1,none,read_mostly,1.5,4\n"
)


def test_a_csv_row_becomes_a_profile_that_validates():
    entries = entries_from_upload("fleet.csv", CSV.encode())
    assert [e["name"] for e in entries] == ["db1", "db2"]
    first = entries[0]["profile"]
    assert first["hardware"]["ram_gb"] == 64
    assert first["hardware"]["storage"] == {
        "media": "nvme",
        "device_count": 2,
        "raid_level": "raid1",
    }
    assert parse_profile(entries[1]["profile"]).hardware.ram_gb == 0.5


def test_a_cell_that_is_not_a_number_is_left_for_validation_to_name():
    text = "name,hardware.ram_gb\ndb1,lots\n"
    assert entries_from_upload("f.csv", text.encode())[0]["profile"] == {
        "hardware": {"ram_gb": "lots"}
    }


def test_unknown_columns_are_refused_listing_the_known_ones():
    with pytest.raises(BatchInvalid) as refused:
        entries_from_upload("f.csv", b"name,ram\ndb1,8\n")
    assert "unknown columns ram" in refused.value.errors["file"][0]
    assert "hardware.storage.media" in refused.value.errors["file"][0]


@pytest.mark.parametrize("document", [{"profiles": [1]}, [1]])
def test_json_is_the_api_body_or_its_list(document):
    assert entries_from_upload("f.json", json.dumps(document).encode()) == [1]


@pytest.mark.parametrize(
    ("name", "data"),
    [("f.txt", b"x"), ("f.json", b"{"), ("f.json", b"{}"), ("f.csv", b"\xff\xfe")],
)
def test_unreadable_files_are_refused_under_file(name, data):
    with pytest.raises(BatchInvalid) as refused:
        entries_from_upload(name, data)
    assert list(refused.value.errors) == ["file"]


def test_the_csv_columns_are_the_profile_fields():
    assert CSV_COLUMNS[0] == "name"
    assert "workload.recovery_target_minutes" in CSV_COLUMNS
    assert raw_profile()  # the contract example has every section the columns name


def test_a_csv_with_nul_bytes_is_refused_not_a_crash():
    with pytest.raises(BatchInvalid) as refused:
        entries_from_upload("f.csv", b"name,hardware.ram_gb\ndb1,8\x00\n")
    assert list(refused.value.errors) == ["file"]


def test_a_cell_over_the_csv_limit_is_refused_naming_its_line():
    text = "name,hardware.ram_gb\ndb1,8\ndb2," + "9" * 131_073 + "\n"
    with pytest.raises(BatchInvalid) as refused:  # was csv.Error, a 500
        entries_from_upload("f.csv", text.encode())
    assert refused.value.errors == {"file": ["line 3: a cell is longer than 131,072 characters"]}
