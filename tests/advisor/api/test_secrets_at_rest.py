"""Secrets at rest: a batch host's paste, a measurement's profile and its server settings keep
only what the advisor reads, and a paste that cannot be read is not kept at all."""

from __future__ import annotations

import pytest

from advisor.models import BatchItem, Measurement
from rules.inputs.examples import raw_profile

pytestmark = pytest.mark.django_db
SECRET = "Hunter2Secret"
PASTE = (
    f"root@db1:~# mysql -uroot -p{SECRET}\n[client]\npassword={SECRET}\n[mysqld]\n"
    f"innodb_io_capacity=400\nwsrep_sst_auth=sst:{SECRET}\nhostname=db1.internal\n"
)


@pytest.fixture
def create(post_json, token, django_capture_on_commit_callbacks):
    def run(profiles: list[dict]):
        body = {"profiles": [{"name": f"db{i}", "profile": p} for i, p in enumerate(profiles)]}
        with django_capture_on_commit_callbacks(execute=True):
            return post_json("/api/v1/batches", body, token=token)

    return run


def test_a_batch_keeps_of_a_hosts_paste_only_what_the_advisor_reads(create):
    assert create([raw_profile(current={"mycnf": PASTE})]).status_code == 202
    item = BatchItem.objects.get()
    assert SECRET not in str(item.profile)
    assert "db1.internal" not in str(item.profile)
    assert item.profile["current"] == {"mycnf": "[mysqld]\ninnodb_io_capacity = 400"}
    assert item.status == BatchItem.Status.DONE
    assert item.recommendation is not None
    assert item.recommendation.result["inputs"]["current"]["innodb_io_capacity"] == "400"


def test_a_hosts_paste_that_cannot_be_read_fails_its_item_and_is_not_kept(create):
    unreadable = f"mysql -uroot -p{SECRET}\nnothing a server reads\n"
    assert create([raw_profile(current={"mycnf": unreadable}), raw_profile()]).status_code == 202
    bad, good = BatchItem.objects.order_by("position")
    assert "current" not in bad.profile
    assert SECRET not in str(bad.profile) + str(bad.errors)
    assert bad.status == BatchItem.Status.FAILED
    assert list(bad.errors) == ["current.mycnf"]
    assert "no server variables found" in bad.errors["current.mycnf"][0]
    assert good.status == BatchItem.Status.DONE


def test_a_measurement_keeps_its_paste_reduced_and_only_the_modelled_settings(post_json, token):
    settings = {
        "innodb_buffer_pool_size": "8G",
        "innodb_flush_log_at_trx_commit": 1,
        "hostname": "db1.internal",
        "wsrep_provider_options": f"socket.ssl_key=/k;pc.password={SECRET}",
    }
    body = {
        "kind": "benchmark",
        "profile": raw_profile(current={"mycnf": PASTE}),
        "value": 8200,
        "server_settings": settings,
    }
    response = post_json("/api/v1/measurements", body, token=token)
    assert response.status_code == 201, response.content
    stored = Measurement.objects.get()
    assert SECRET not in str(stored.profile) + str(stored.server_settings)
    assert "db1.internal" not in str(stored.profile) + str(stored.server_settings)
    assert stored.server_settings == {
        "innodb_buffer_pool_size": "8G",
        "innodb_flush_log_at_trx_commit": 1,
    }
    assert stored.profile["current"] == {"mycnf": "[mysqld]\ninnodb_io_capacity = 400"}
