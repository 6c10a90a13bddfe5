"""Schemathesis against /api/openapi.json: generated requests, valid and invalid, to every
operation of a running server on loopback; no answer may be a server error or break the document.

The demo knobs `_fail` and `_delay` are left out of the generated requests: a 500 asked for with
`_fail=500` is the knob working, and a ten-second `_delay` only slows the run.
"""
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from pulldownkit.raw import healthy
from pulldownkit.server import start_server
from test_hostile_support import assert_no_crash, http_json

KNOBS = {"_fail", "_delay"}
MAX_EXAMPLES = 60


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    folder = tmp_path_factory.mktemp("schemathesis")
    server = start_server(folder, seed=30)
    try:  # a failing setup must stop the server too, or it outlives the run
        status, _, document = http_json(server, "GET", "/api/openapi.json")
        assert status == 200
        for path_item in document["paths"].values():
            for operation in path_item.values():
                if isinstance(operation, dict) and "parameters" in operation:
                    operation["parameters"] = [parameter for parameter in operation["parameters"]
                                               if document_parameter(document, parameter).get("name") not in KNOBS]
        schema = schemathesis.openapi.from_dict(document)
        yield server, schema
        assert_no_crash(server)
    finally:
        code = server.stop()
    assert code == 0


def document_parameter(document, parameter):
    """The parameter object itself, following a local `$ref`."""
    while "$ref" in parameter:
        node = document
        for part in parameter["$ref"].removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        parameter = node
    return parameter


def documented_combination(case):
    """The document says in words that `before` and `after` exclude each other (a 400 names
    `after`); a parameter list cannot say it, so valid-data checks skip that pair."""
    query = case.query or {}
    return not ("before" in query and "after" in query)


OPERATIONS = [("GET", "/api/items"), ("HEAD", "/api/items"), ("POST", "/api/items"), ("GET", "/api/items/{id}"),
              ("HEAD", "/api/items/{id}"), ("POST", "/api/refresh"), ("GET", "/api/session"),
              ("GET", "/api/openapi.json"), ("GET", "/healthz"),
              ("GET", "/api/demo"), ("HEAD", "/api/demo"), ("PATCH", "/api/demo"),
              ("GET", "/api/demo/faults"), ("HEAD", "/api/demo/faults"), ("POST", "/api/demo/faults"),
              ("DELETE", "/api/demo/faults"), ("POST", "/api/demo/items"), ("POST", "/api/demo/reset")]
# Every knob back to its start-up value and no fault pending, so a generated patch (a ten-minute
# delay, a fail rate of 1) or fault holds for its own case only.
RESET_KNOBS = {"delayMs": None, "jitterMs": None, "failRate": None, "newItemsEvery": None}


@pytest.mark.parametrize("method,path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_generated_requests_get_no_server_error_and_answers_match_the_document(api, method, path):
    server, schema = api
    try:
        operation = schema[path][method]
    except KeyError:
        pytest.skip(f"{method} {path} is not in the document")

    @settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(case=operation.as_strategy().filter(documented_combination))
    def check(case):
        try:
            case.call_and_validate(base_url=server.url, timeout=10)
        finally:
            if path == "/api/demo":
                assert http_json(server, "PATCH", "/api/demo", RESET_KNOBS)[0] == 200
            if path == "/api/demo/faults":
                assert http_json(server, "DELETE", "/api/demo/faults")[0] == 200

    check()
    assert healthy(server)


@pytest.mark.parametrize("body,status", [({"limit": 13.0}, 200), ({"after": 5.0, "limit": 1e1}, 200),
                                         ({"limit": 13.5}, 400), ({"after": 9.3e18}, 400), ({"after": -0.0}, 200),
                                         ({"limit": 1e300}, 400)])
def test_integral_numbers_written_with_a_fraction_count_as_integers(api, body, status):
    # Found by Schemathesis: JSON Schema's "integer" includes 13.0, the server refused it.
    server, _ = api
    assert http_json(server, "POST", "/api/refresh", body)[0] == status
