"""The OpenAPI schema and the interactive docs, served from this host only."""

from __future__ import annotations

import re

import pytest

from advisor.api.yaml_exports import YAML_EXPORTS

pytestmark = pytest.mark.django_db


def test_the_schema_is_openapi_3_with_every_endpoint(client):
    response = client.get("/api/v1/schema", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) == {
        "/api/v1/batches",
        "/api/v1/batches/{batch_id}",
        "/api/v1/batches/{batch_id}/archive",
        "/api/v1/catalog",
        "/api/v1/check",
        "/api/v1/measurements",
        "/api/v1/recommendations",
        "/api/v1/recommendations/{recommendation_id}",
        "/api/v1/recommendations/{recommendation_id}/mycnf",
        "/api/v1/recommendations/{recommendation_id}/sql",
        "/api/v1/recommendations/{recommendation_id}/udev",
        "/api/v1/recommendations/{recommendation_id}/sysctl",
        "/api/v1/recommendations/{recommendation_id}/ansible",
        "/api/v1/recommendations/{recommendation_id}/ansible-tasks",
        "/api/v1/recommendations/{recommendation_id}/k8s-percona",
        "/api/v1/recommendations/{recommendation_id}/k8s-mysql-operator",
        "/api/v1/recommendations/{recommendation_id}/k8s-mariadb-operator",
        "/api/v1/recommendations/{recommendation_id}/rds-json",
        "/api/v1/recommendations/{recommendation_id}/rds-terraform",
        "/api/v1/recommendations/{recommendation_id}/aurora-json",
        "/api/v1/recommendations/{recommendation_id}/aurora-terraform",
        "/api/v1/rules",
        "/api/v1/sources",
    }
    create = schema["paths"]["/api/v1/recommendations"]["post"]
    body = create["requestBody"]
    assert body["required"] is True
    request = {"$ref": "#/components/schemas/RecommendationRequest"}
    assert body["content"]["application/json"]["schema"] == request
    components = schema["components"]["schemas"]
    profile = components["Profile"]
    # the profile's fields and, beside them, the RDS parameter list (not part of the profile)
    assert components["RecommendationRequest"]["properties"] == {
        **profile["properties"],
        "rds_parameters": components["RecommendationRequest"]["properties"]["rds_parameters"],
    }
    assert "rds_parameters" not in profile["properties"]
    # JSON answers the result or, with ?format=rds-json / aurora-json, the RDS or Aurora requests
    detail = schema["paths"]["/api/v1/recommendations/{recommendation_id}"]["get"]
    json_answer = detail["responses"]["200"]["content"]["application/json"]["schema"]
    assert json_answer["oneOf"][0] == {"$ref": "#/components/schemas/ResultOutput"}
    assert json_answer["oneOf"][1]["required"][-1] == "ManagedByRds"
    assert json_answer["oneOf"][2]["required"][-1] == "NotSetOnAurora"
    assert len(json_answer["oneOf"]) == 3
    yaml_answer = detail["responses"]["200"]["content"]["application/yaml"]["schema"]
    # YAML answers the document of each YAML export (a client parses it), not a string
    assert yaml_answer == {"oneOf": list(YAML_EXPORTS.values())}
    assert schema["info"]["version"] == "2.5"


def test_the_schema_documents_revert_on_every_export_and_the_check(client):
    schema = client.get("/api/v1/schema", HTTP_ACCEPT="application/json").json()
    exports = [p for p in schema["paths"] if p.startswith("/api/v1/recommendations")]
    for path in exports:
        for operation in schema["paths"][path].values():
            names = {p["name"] for p in operation.get("parameters", [])}
            assert "revert" in names, path
    check = schema["paths"]["/api/v1/check"]["post"]
    assert check["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Profile"
    }
    ok = check["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    output = schema["components"]["schemas"][ok.rsplit("/", 1)[1]]
    assert {"passed", "unsafe", "changes"} <= set(output["required"])
    setting = schema["components"]["schemas"]["SettingOutput"]["properties"]
    assert "apply_note" in setting
    assert "at the next restart" in setting["dynamic"]["description"]


def test_the_docs_page_loads_everything_from_this_host(client):
    response = client.get("/api/v1/docs")
    assert response.status_code == 200
    html = response.content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert sources
    assert all(s.startswith("/") for s in sources), sources
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)
    assert "<style" not in html


def test_the_docs_start_up_script_and_assets_are_served(client):
    html = client.get("/api/v1/docs").content.decode()
    script = re.findall(r'<script src="([^"]+)"', html)[-1]
    response = client.get(script.replace("&amp;", "&"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "/api/v1/schema" in response.content.decode()
    bundle = client.get(re.findall(r'<script src="([^"]+)"', html)[0])
    assert bundle.status_code == 200
    bundle.close()  # a file response


def test_options_on_the_docs_page_lists_its_methods(client):
    response = client.options("/api/v1/docs")  # was a 500: DRF's metadata through an HTML renderer
    assert response.status_code == 200
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert response.content == b""
