"""CORS: off by default; --cors-origin allows the listed origins with credentials and answers preflights."""
import pytest

from pulldownkit.client import call, get
from test_api_support import assert_problem

ORIGIN = "http://localhost:3000"
PREFLIGHT = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "content-type, x-session-id"}


@pytest.fixture
def cors_server(start_server):
    return start_server("--cors-origin", ORIGIN, "--cors-origin", "https://app.example", seed="20")


def vary(reply):
    return {token.strip().lower() for value in reply.header_all("Vary") for token in value.split(",")}


def test_cors_is_off_by_default(server):
    reply = get(server, "/api/items", headers={"Origin": ORIGIN})
    assert reply.status == 200
    assert reply.header("Access-Control-Allow-Origin") is None
    assert reply.header("Access-Control-Allow-Credentials") is None


def test_without_cors_a_preflight_is_not_answered_as_one(server):
    reply = call(server, "OPTIONS", "/api/items", headers=PREFLIGHT)
    assert reply.status == 405
    assert reply.header("Access-Control-Allow-Origin") is None


def test_an_allowed_origin_is_echoed_with_credentials_and_vary(cors_server):
    reply = get(cors_server, "/api/items", headers={"Origin": ORIGIN})
    assert reply.status == 200
    assert reply.header_all("Access-Control-Allow-Origin") == [ORIGIN]
    assert reply.header("Access-Control-Allow-Credentials") == "true"
    assert "origin" in vary(reply)
    exposed = {name.strip().lower() for name in reply.header("Access-Control-Expose-Headers").split(",")}
    assert {"link", "etag", "x-session-id", "retry-after", "location"} <= exposed


def test_every_listed_origin_is_allowed(cors_server):
    reply = get(cors_server, "/api/session", headers={"Origin": "https://app.example"})
    assert reply.header("Access-Control-Allow-Origin") == "https://app.example"


def test_a_preflight_from_an_allowed_origin_is_204_with_methods_and_headers(cors_server):
    reply = call(cors_server, "OPTIONS", "/api/refresh", headers=PREFLIGHT)
    assert reply.status == 204
    assert reply.body == b""
    assert reply.header("Access-Control-Allow-Origin") == ORIGIN
    assert reply.header("Access-Control-Allow-Credentials") == "true"
    methods = {m.strip() for m in reply.header("Access-Control-Allow-Methods").split(",")}
    assert {"GET", "HEAD", "POST"} <= methods
    headers = {h.strip().lower() for h in reply.header("Access-Control-Allow-Headers").split(",")}
    assert {"content-type", "x-session-id", "if-none-match"} <= headers
    assert "origin" in vary(reply), "the answer depends on the Origin"


@pytest.mark.parametrize("origin", ["http://evil.example", "http://localhost:3001", "null"])
def test_other_origins_get_no_allow_origin(cors_server, origin):
    reply = get(cors_server, "/api/items", headers={"Origin": origin})
    assert reply.status == 200
    assert reply.header("Access-Control-Allow-Origin") is None
    assert reply.header("Access-Control-Allow-Credentials") is None
    assert "origin" in vary(reply)


def test_a_preflight_from_another_origin_is_refused(cors_server):
    reply = call(cors_server, "OPTIONS", "/api/items", headers={**PREFLIGHT, "Origin": "http://evil.example"})
    assert_problem(reply, 403)
    assert reply.header("Access-Control-Allow-Origin") is None
    assert "origin" in vary(reply)


def test_errors_and_injected_failures_carry_the_cors_headers_too(cors_server):
    for path in ["/api/items?limit=0", "/api/nope", "/api/items?_fail=503", "/api/items?_delay=x"]:
        reply = get(cors_server, path, headers={"Origin": ORIGIN})
        assert reply.status >= 400
        assert reply.header("Access-Control-Allow-Origin") == ORIGIN, path
