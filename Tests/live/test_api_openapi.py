"""GET /api/openapi.json: a valid OpenAPI 3.1 document that matches what the server answers."""
import urllib.parse

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from openapi_spec_validator import validate as validate_spec
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from pulldownkit.client import call, get, on_server, post
from pulldownkit.events import Stream
from test_api_support import with_session

BASE = "urn:pulldown:openapi"
METHODS = ["get", "head", "post", "put", "delete", "patch", "options", "trace"]


@pytest.fixture
def document(server):
    reply = get(server, "/api/openapi.json")
    assert reply.status == 200
    assert reply.content_type == "application/json"
    return reply.json()


class Contract:
    """Checks real answers against the document: status listed, body and headers match their schemas."""

    def __init__(self, document):
        self.document = document
        self.registry = Registry().with_resource(BASE, Resource(contents=document, specification=DRAFT202012))

    def node(self, pointer):
        value = self.document
        for part in pointer.split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            value = value[int(part) if isinstance(value, list) else part]
        return value

    @staticmethod
    def escape(part):
        return part.replace("~", "~0").replace("/", "~1")

    def follow(self, pointer):
        """The pointer itself, or where its `$ref` leads."""
        value = self.node(pointer)
        while "$ref" in value:
            pointer = value["$ref"].removeprefix("#")
            value = self.node(pointer)
        return pointer, value

    def validate(self, schema_pointer, instance):
        fragment = urllib.parse.quote(schema_pointer, safe="/~")
        validator = Draft202012Validator({"$ref": f"{BASE}#{fragment}"}, registry=self.registry,
                                         format_checker=FormatChecker())
        errors = sorted(validator.iter_errors(instance), key=lambda error: error.path)
        assert not errors, [f"{list(error.path)}: {error.message}" for error in errors]

    def check(self, path, method, reply):
        """Asserts that `reply` to METHOD PATH is what the document says it can be."""
        operation = f"/paths/{self.escape(path)}/{method.lower()}"
        responses = self.node(operation + "/responses")
        assert str(reply.status) in responses, f"{method} {path} answered {reply.status}, not documented"
        pointer, response = self.follow(f"{operation}/responses/{reply.status}")
        content = response.get("content", {})
        if content and method.upper() != "HEAD":
            assert reply.content_type in content, (reply.content_type, list(content))
            # JSON bodies against their schemas; a page or a certificate is its type alone.
            if reply.content_type.endswith("json"):
                self.validate(f"{pointer}/content/{self.escape(reply.content_type)}/schema", reply.json())
        else:
            assert reply.body == b""
        for name, header in response.get("headers", {}).items():
            header_pointer, header = self.follow(f"{pointer}/headers/{self.escape(name)}")
            values = reply.header_all(name)
            if header.get("required"):
                assert values, f"{name} is required on {reply.status}"
            for value in values:
                schema_pointer, schema = self.follow(f"{header_pointer}/schema")
                self.validate(schema_pointer, int(value) if schema.get("type") == "integer" else value)
        return reply


@pytest.fixture
def contract(document):
    return Contract(document)


def test_the_document_is_valid_openapi_3_1(document):
    assert document["openapi"].startswith("3.1.")
    validate_spec(document)


def test_the_document_lists_every_endpoint(document):
    assert set(document["paths"]) == {"/api/items", "/api/items/{id}", "/api/changes", "/api/events", "/api/refresh",
                                      "/api/session", "/api/openapi.json", "/healthz", "/api/demo",
                                      "/api/demo/faults", "/api/demo/items", "/api/demo/churn", "/api/demo/reset", "/api/doctor",
                                      "/api/doctor/{client}", "/api/doctor/events", "/trust",
                                      "/trust/pulldown-ca.pem", "/trust/pulldown-ca.crt", "/trust/pulldown-ca.mobileconfig",
                                      "/trust/open", "/media/demo/{name}", "/api/demo/clients",
                                      "/api/demo/clients/{client}/profile", "/api/demo/profile", "/api/demo/script",
                                      "/api/demo/script/play", "/api/demo/script/pause", "/api/demo/script/restart",
                                      "/api/demo/clock", "/api/demo/rate-limit"}


def test_every_api_operation_documents_the_demo_knobs(document):
    for path, item in document["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            names = {parameter["$ref"].rsplit("/", 1)[-1] if "$ref" in parameter else parameter["name"]
                     for parameter in item[method].get("parameters", [])}
            if path.startswith(("/api/demo", "/api/doctor")):
                # The demo API steers the knobs and is never steered by them; the doctor watches
                # what they do to others.
                assert not {"delay", "fail"} & names, (path, method)
            elif path.startswith("/api/"):
                assert {"delay", "fail"} <= names, (path, method)
                assert {"400", "429", "500", "503"} <= set(item[method]["responses"]), (path, method)
            else:
                assert not {"delay", "fail"} & names


def test_the_documented_methods_are_exactly_the_ones_the_server_allows(server, document):
    for path, item in document["paths"].items():
        documented = sorted(method.upper() for method in METHODS if method in item)
        unlisted = next(method for method in ["PATCH", "PUT"] if method.lower() not in item)
        reply = call(server, unlisted, path.replace("{id}", "1").replace("{client}", "000000000000"))
        assert reply.status == 405
        assert sorted(m.strip() for m in reply.header("Allow").split(",")) == documented, path


def test_the_session_security_schemes_match_the_cookie_and_header(document):
    schemes = document["components"]["securitySchemes"]
    assert {(s["in"], s["name"]) for s in schemes.values() if s["type"] == "apiKey"} == {
        ("cookie", "pulldown_session"), ("header", "X-Session-Id")}
    assert schemes["demoToken"] == {**schemes["demoToken"], "type": "http", "scheme": "bearer"}


def test_a_demo_request_without_the_token_matches_the_document(start_server):
    server = start_server("--host", "0.0.0.0", "--no-qr")
    server.host = "127.0.0.1"  # listening on every interface, asked over loopback only
    contract = Contract(get(server, "/api/openapi.json").json())
    contract.check("/api/demo", "GET", get(server, "/api/demo"))
    contract.check("/api/demo/faults", "POST", call(server, "POST", "/api/demo/faults", json={"on": "page"}))
    contract.check("/api/demo/items", "POST", call(server, "POST", "/api/demo/items"))
    contract.check("/api/demo/reset", "POST", call(server, "POST", "/api/demo/reset"))


def test_the_doctor_s_answers_match_the_document(server, contract):
    stream = Stream(server, path="/api/doctor/events")
    assert stream.status == 200 and stream.headers["cache-control"] == "no-store"
    for _ in range(2):
        get(server, "/api/items", headers={"User-Agent": "contract"})
    contract.validate("/components/schemas/DoctorClient", stream.next_named("doctor").data["client"])
    stream.close()
    clients = contract.check("/api/doctor", "GET", get(server, "/api/doctor")).json()["clients"]
    assert clients[0]["findings"]
    contract.check("/api/doctor", "HEAD", call(server, "HEAD", "/api/doctor"))
    contract.check("/api/doctor/{client}", "GET", get(server, f"/api/doctor/{clients[0]['id']}"))
    contract.check("/api/doctor/{client}", "GET", get(server, "/api/doctor/000000000000"))
    contract.check("/api/doctor/events", "HEAD", call(server, "HEAD", "/api/doctor/events"))


def test_with_the_doctor_off_its_paths_answer_as_the_document_says(start_server):
    server = start_server("--doctor", "off")
    contract = Contract(get(server, "/api/openapi.json").json())
    contract.check("/api/doctor", "GET", get(server, "/api/doctor"))
    contract.check("/api/doctor/{client}", "GET", get(server, "/api/doctor/000000000000"))
    contract.check("/api/doctor/events", "GET", get(server, "/api/doctor/events"))


def test_the_problem_schema_is_rfc_9457_with_invalid_params(document):
    problem = document["components"]["schemas"]["Problem"]
    assert set(problem["required"]) == {"type", "title", "status", "detail"}
    assert set(problem["properties"]["invalid_params"]["items"]["required"]) == {"name", "reason"}


def test_item_pages_match_the_document(server, contract):
    reply = contract.check("/api/items", "GET", get(server, "/api/items"))
    assert reply.header("Link")
    contract.check("/api/items", "GET", get(server, "/api/items?limit=10&before=11"))
    contract.check("/api/items", "GET", get(server, "/api/items?after=10&limit=5"))
    contract.check("/api/items", "GET", get(server, "/api/items", headers={"If-None-Match": reply.header("ETag")}))
    contract.check("/api/items", "HEAD", call(server, "HEAD", "/api/items"))


def test_items_and_new_items_match_the_document(server, contract):
    created = contract.check("/api/items", "POST", post(server, "/api/items", json={"title": "Schema", "body": "x"}))
    assert created.status == 201
    contract.check("/api/items/{id}", "GET", get(server, on_server(server, created.header("Location"))))
    contract.check("/api/items/{id}", "HEAD", call(server, "HEAD", on_server(server, created.header("Location"))))
    contract.check("/api/items/{id}", "GET", get(server, "/api/items/999"))


def test_refresh_and_session_match_the_document(server, contract):
    fresh = contract.check("/api/session", "GET", get(server, "/api/session"))
    assert fresh.json()["lastUpdated"] is None
    refreshed = contract.check("/api/refresh", "POST", post(server, "/api/refresh"))
    contract.check("/api/refresh", "POST", post(server, "/api/refresh", json={"after": 45, "limit": 3},
                                                 headers=with_session(refreshed.session)))
    state = contract.check("/api/session", "GET", get(server, "/api/session", headers=with_session(refreshed.session)))
    assert state.json()["refreshCount"] == 2


def test_problems_match_the_document(server, contract):
    cases = [
        ("/api/items", "GET", lambda: get(server, "/api/items?limit=0&before=x")),
        ("/api/items", "GET", lambda: get(server, "/api/items?_delay=99999")),
        ("/api/items", "POST", lambda: post(server, "/api/items", json={"title": ""})),
        ("/api/items", "POST", lambda: post(server, "/api/items", body=b"{", headers={"Content-Type": "application/json"})),
        ("/api/items", "POST", lambda: post(server, "/api/items", body=b"x" * 70000,
                                            headers={"Content-Type": "application/json"})),
        ("/api/refresh", "POST", lambda: post(server, "/api/refresh", json={"after": "x"})),
        ("/api/refresh", "POST", lambda: post(server, "/api/refresh?_fail=429")),
        ("/api/session", "GET", lambda: get(server, "/api/session?_fail=500")),
        ("/api/openapi.json", "GET", lambda: get(server, "/api/openapi.json?_fail=503")),
        ("/api/items/{id}", "GET", lambda: get(server, "/api/items/0?_fail=418")),
    ]
    for path, method, make in cases:
        reply = make()
        assert reply.status >= 400
        contract.check(path, method, reply)


def test_the_unlisted_answers_match_their_components(server, contract):
    not_allowed = call(server, "DELETE", "/api/items")
    contract.validate("/components/schemas/Problem", not_allowed.json())
    assert not_allowed.header("Allow")
    unknown = get(server, "/api/nothing/here")
    assert unknown.status == 404
    contract.validate("/components/schemas/Problem", unknown.json())


def test_health_matches_the_document(server, contract):
    contract.check("/healthz", "GET", get(server, "/healthz"))
    contract.check("/healthz", "HEAD", call(server, "HEAD", "/healthz"))
    contract.check("/api/openapi.json", "GET", get(server, "/api/openapi.json"))


def test_the_trust_routes_without_https_match_the_document(server, contract):
    for path in ["/trust", "/trust/pulldown-ca.pem", "/trust/pulldown-ca.crt", "/trust/pulldown-ca.mobileconfig", "/trust/open"]:
        reply = contract.check(path, "GET", get(server, path))
        assert reply.status == 404 and "--https" in reply.json()["detail"], (path, reply)


def test_the_demo_knobs_match_the_document(server, contract):
    contract.check("/api/demo", "GET", get(server, "/api/demo"))
    contract.check("/api/demo", "HEAD", call(server, "HEAD", "/api/demo"))
    patch = {"Content-Type": "application/merge-patch+json"}
    contract.check("/api/demo", "PATCH", call(server, "PATCH", "/api/demo", json={"jitterMs": 3}, headers=patch))
    contract.check("/api/demo", "PATCH", call(server, "PATCH", "/api/demo", json={"jitterMs": -3}, headers=patch))


def test_the_demo_faults_match_the_document(server, contract):
    path = "/api/demo/faults"
    contract.check(path, "POST", call(server, "POST", path, json={"on": "page", "count": 2}))
    contract.check(path, "POST", call(server, "POST", path, json={"on": "nowhere"}))
    contract.check(path, "GET", get(server, path))
    contract.check(path, "HEAD", call(server, "HEAD", path))
    contract.check(path, "DELETE", call(server, "DELETE", path))


def test_demo_items_match_the_document(server, contract):
    path = "/api/demo/items"
    contract.check(path, "POST", call(server, "POST", path, json={"count": 2}))
    contract.check(path, "POST", call(server, "POST", path, json={"count": 0}))


# A valid body for each operation that reads one, to which one field at a time is set to null.
VALID_BODIES = {("/api/items", "post"): {"title": "Null check"}, ("/api/items/{id}", "patch"): {"title": "Null check"},
                ("/api/refresh", "post"): {},
                ("/api/demo", "patch"): {}, ("/api/demo/faults", "post"): {"on": "page"},
                ("/api/demo/items", "post"): {}, ("/api/demo/churn", "post"): {}, ("/api/demo/reset", "post"): {},
                ("/api/demo/profile", "put"): {}, ("/api/demo/clients/{client}/profile", "put"): {},
                ("/api/demo/script", "put"): {"steps": []}, ("/api/demo/clock", "post"): {"advance": "1s"},
                ("/api/demo/rate-limit", "put"): {"limit": 0}}
# Path parameters for those, where the body is read before the path's value is looked up.
PATH_VALUES = {"{client}": "0" * 32, "{id}": "1"}


def allows_null(contract, pointer):
    """Whether the schema at `pointer` accepts null (a type list with it, or a branch that does)."""
    pointer, schema = contract.follow(pointer)
    kinds = schema.get("type")
    if kinds == "null" or (isinstance(kinds, list) and "null" in kinds) or schema.get("const", 0) is None:
        return True
    return any(allows_null(contract, f"{pointer}/{key}/{index}")
               for key in ("oneOf", "anyOf") for index in range(len(schema.get(key, []))))


def test_every_body_field_the_document_does_not_allow_null_refuses_it(server, document, contract):
    # Found by Schemathesis: {"count": null} was taken as "absent" where the document says integer.
    checked = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            assert (path, method) in VALID_BODIES, f"{method} {path} reads a body this test does not know"
            for media, content in operation["requestBody"]["content"].items():
                schema_pointer, schema = contract.follow(
                    f"/paths/{contract.escape(path)}/{method}/requestBody/content/{contract.escape(media)}/schema")
                for name in schema.get("properties", {}):
                    body = dict(VALID_BODIES[(path, method)], **{name: None})
                    target = path
                    for parameter, value in PATH_VALUES.items():
                        target = target.replace(parameter, value)
                    reply = call(server, method.upper(), target, json=body, headers={"Content-Type": media})
                    if allows_null(contract, f"{schema_pointer}/properties/{contract.escape(name)}"):
                        assert reply.status < 300, (method, path, name, reply.status, reply.body)
                    else:
                        assert reply.status == 400, (method, path, name, reply.status)
                        assert name in [param["name"] for param in reply.json()["invalid_params"]], (path, name)
                    contract.check(path, method.upper(), reply)
                    checked.append((path, name))
    assert ("/api/demo/items", "count") in checked and ("/api/items", "title") in checked
    call(server, "DELETE", "/api/demo/faults")


def test_demo_reset_matches_the_document(server, contract, tmp_path, start_server):
    path = "/api/demo/reset"
    contract.check(path, "POST", call(server, "POST", path))
    contract.check(path, "POST", call(server, "POST", path, json={"count": 2}))
    empty = start_server(seed="0")
    assert contract.check(path, "POST", call(empty, "POST", path)).json() == {"itemCount": 0, "newestId": None}
    data = tmp_path / "posts.json"
    data.write_text('[{"title": "one"}]')
    from_file = start_server("--data", str(data))
    data.write_text("[")
    contract.check(path, "POST", call(from_file, "POST", path))
