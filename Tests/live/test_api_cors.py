"""CORS: on by default for any origin without credentials; --cors-origin adds credentials for the
listed origins; preflights are answered; the demo API answers another origin only with its token."""
import pytest

from pulldownkit.client import call, get
from test_api_support import assert_problem

ORIGIN = "http://localhost:3000"
PREFLIGHT = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "content-type, x-session-id"}
EXPOSED = {"link", "etag", "x-session-id", "retry-after", "location"}


@pytest.fixture
def cors_server(start_server):
    return start_server("--cors-origin", ORIGIN, "--cors-origin", "https://app.example", seed="20")


def vary(reply):
    return {token.strip().lower() for value in reply.header_all("Vary") for token in value.split(",")}


def exposed(reply):
    return {name.strip().lower() for name in (reply.header("Access-Control-Expose-Headers") or "").split(",")}


@pytest.mark.parametrize("path", ["/api/items", "/api/items?limit=3&before=10", "/api/items/3", "/api/session",
                                  "/api/openapi.json", "/media/demo/avatar-1.png", "/api/nope", "/api/items?limit=0"])
def test_without_a_flag_any_origin_may_read_every_answer_without_credentials(server, path):
    reply = get(server, path, headers={"Origin": ORIGIN})
    assert reply.header_all("Access-Control-Allow-Origin") == ["*"], path
    assert reply.header("Access-Control-Allow-Credentials") is None
    assert EXPOSED <= exposed(reply)


def test_the_newest_page_kept_in_memory_carries_them_too(server):
    first, again = get(server, "/api/items"), get(server, "/api/items", headers={"Origin": ORIGIN})
    assert first.header("Access-Control-Allow-Origin") == again.header("Access-Control-Allow-Origin") == "*"
    assert first.header("ETag") == again.header("ETag"), "the same answer for every origin"
    assert "origin" not in vary(again)


def test_without_a_flag_a_preflight_is_answered_with_what_the_api_reads(server):
    reply = call(server, "OPTIONS", "/api/refresh", headers={**PREFLIGHT, "Access-Control-Request-Headers":
                                                             "content-type, x-session-id, if-none-match, x-trace"})
    assert reply.status == 204 and reply.body == b""
    assert reply.header("Access-Control-Allow-Origin") == "*"
    assert reply.header("Access-Control-Allow-Credentials") is None
    headers = {h.strip().lower() for h in reply.header("Access-Control-Allow-Headers").split(",")}
    assert {"content-type", "x-session-id", "if-none-match", "last-event-id", "x-trace"} <= headers
    assert {"GET", "HEAD", "POST"} <= {m.strip() for m in reply.header("Access-Control-Allow-Methods").split(",")}
    assert int(reply.header("Access-Control-Max-Age")) > 0


def test_an_allowed_origin_is_echoed_with_credentials_and_vary(cors_server):
    reply = get(cors_server, "/api/items", headers={"Origin": ORIGIN})
    assert reply.status == 200
    assert reply.header_all("Access-Control-Allow-Origin") == [ORIGIN]
    assert reply.header("Access-Control-Allow-Credentials") == "true"
    assert "origin" in vary(reply)
    assert EXPOSED <= exposed(reply)


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
def test_other_origins_get_no_credentials(cors_server, origin):
    reply = get(cors_server, "/api/items", headers={"Origin": origin})
    assert reply.status == 200
    assert reply.header("Access-Control-Allow-Origin") == "*"
    assert reply.header("Access-Control-Allow-Credentials") is None
    assert "origin" in vary(reply)


def test_a_preflight_from_an_unlisted_origin_allows_no_credentials(cors_server):
    reply = call(cors_server, "OPTIONS", "/api/items", headers={**PREFLIGHT, "Origin": "http://evil.example"})
    assert reply.status == 204
    assert reply.header("Access-Control-Allow-Origin") == "*"
    assert reply.header("Access-Control-Allow-Credentials") is None


def test_errors_and_injected_failures_carry_the_cors_headers_too(cors_server):
    for path in ["/api/items?limit=0", "/api/nope", "/api/items?_fail=503", "/api/items?_delay=x"]:
        reply = get(cors_server, path, headers={"Origin": ORIGIN})
        assert reply.status >= 400
        assert reply.header("Access-Control-Allow-Origin") == ORIGIN, path
        assert get(cors_server, path, headers={"Origin": "http://evil.example"}).header("Access-Control-Allow-Origin") == "*"


DEMO = [("GET", "/api/demo", None), ("PATCH", "/api/demo", {"jitterMs": 3}), ("POST", "/api/demo/items", {"count": 1}),
        ("POST", "/api/demo/faults", {"on": "page"}), ("DELETE", "/api/demo/faults", None), ("POST", "/api/demo/reset", None)]


@pytest.mark.parametrize("method,path,body", DEMO)
def test_on_loopback_another_origin_cannot_steer_the_demo_and_is_told_why(server, method, path, body):
    # As a browser sends it: a form post or a text/plain fetch needs no preflight, so the server checks.
    for headers in [{"Origin": ORIGIN, "Sec-Fetch-Site": "same-site"}, {"Origin": ORIGIN}, {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "null"}]:
        reply = call(server, method, path, json=body, headers=headers)
        assert_problem(reply, 403)
        assert "--demo-token" in reply.json()["detail"]
    preflight = call(server, "OPTIONS", path, headers={"Origin": ORIGIN, "Access-Control-Request-Method": method})
    assert_problem(preflight, 403)
    assert "--demo-token" in preflight.json()["detail"]
    assert call(server, "GET", "/api/demo").json()["jitterMs"] == 0, "nothing changed"
    # The page itself, and curl, steer it as before.
    assert call(server, method, path, json=body, headers={"Origin": server.url, "Sec-Fetch-Site": "same-origin"}).status in (200, 201)
    assert call(server, method, path, json=body).status in (200, 201)


def test_with_a_demo_token_another_origin_steers_it_with_the_token_only(start_server):
    server = start_server("--demo-token", "presenter-1234", seed="3")
    page = {"Origin": ORIGIN, "Sec-Fetch-Site": "same-site"}
    preflight = call(server, "OPTIONS", "/api/demo", headers={**page, "Access-Control-Request-Method": "PATCH",
                                                              "Access-Control-Request-Headers": "authorization, content-type"})
    assert preflight.status == 204
    assert "authorization" in preflight.header("Access-Control-Allow-Headers").lower()
    assert call(server, "PATCH", "/api/demo", json={"jitterMs": 3}, headers=page).status == 401
    reply = call(server, "PATCH", "/api/demo", json={"jitterMs": 3}, headers={**page, "Authorization": "Bearer presenter-1234"})
    assert reply.status == 200 and reply.json()["jitterMs"] == 3
    assert reply.header("Access-Control-Allow-Origin") == "*"
    assert call(server, "GET", "/api/demo").status == 200, "on loopback the token is for other origins only"
