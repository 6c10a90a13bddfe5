"""Who may steer: on loopback the demo API is open; listening beyond it, every demo request needs
the bearer token, loopback included. Servers here listen on 0.0.0.0, but every request goes to
127.0.0.1: no traffic leaves the machine."""

import pytest

from pulldownkit.client import call, get
from pulldownkit.raw import healthy
from pulldownkit.waiting import wait_until
from test_api_support import assert_problem
from test_network_banner import banner

DEMO_REQUESTS = [
    ("GET", "/api/demo", None),
    ("HEAD", "/api/demo", None),
    ("PATCH", "/api/demo", {"jitterMs": 3}),
    ("GET", "/api/demo/faults", None),
    ("POST", "/api/demo/faults", {"on": "page"}),
    ("DELETE", "/api/demo/faults", None),
    ("POST", "/api/demo/items", {"count": 1}),
    ("GET", "/api/demo/clients", None),
    ("GET", "/api/demo/profile", None),
    ("PUT", "/api/demo/profile", {"preset": "3g"}),
    ("DELETE", "/api/demo/profile", None),
    ("GET", "/api/demo/script", None),
    ("PUT", "/api/demo/script", {"steps": []}),
    ("GET", "/api/demo/clock", None),
    ("DELETE", "/api/demo/rate-limit", None),
    ("PUT", "/api/demo/rate-limit", {"limit": 1, "window": "1s"}),
]


def on_every_interface(start_server, *args, **kwargs):
    """A server on 0.0.0.0, its presenter token, and the banner lines; requests go to 127.0.0.1."""
    server = start_server("--host", "0.0.0.0", "--no-qr", *args, **kwargs)
    lines = banner(server, until=lambda line: line.startswith("Presenter: "))
    server.host = "127.0.0.1"
    presenter = [line for line in lines if line.startswith("Presenter: ")]
    token = presenter[0].rsplit("#demo=", 1)[1]
    return server, token, lines


def bearer(token):
    return {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}


def test_beyond_loopback_a_random_token_is_made_and_printed_in_the_presenter_url(start_server):
    server, token, lines = on_every_interface(start_server)
    assert len(token) == 32 and int(token, 16) >= 0
    for line in [line for line in lines if line.startswith("Presenter: ")]:
        assert line.startswith("Presenter: http://") and line.endswith(f":{server.port}/#demo={token}")
    other, other_token, _ = on_every_interface(start_server)
    assert other_token != token, "each start makes its own"


@pytest.mark.parametrize("method,path,body", DEMO_REQUESTS)
def test_every_demo_request_without_the_token_is_a_401_that_does_not_carry_it(start_server, method, path, body):
    server, token, _ = on_every_interface(start_server)
    for headers in [{}, bearer("wrong-token-0123456789"), bearer(token[:-1]), bearer(token + "0"),
                    {"Authorization": f"Basic {token}"}, {"Authorization": token}]:
        reply = call(server, method, path, json=body, headers=headers)
        assert reply.status == 401, (headers, reply)
        assert reply.header("WWW-Authenticate").startswith("Bearer")
        if method != "HEAD":
            assert_problem(reply, 401)
        assert token.encode() not in reply.body
        assert all(token not in value for _, value in reply.headers)
    reply = call(server, method, path, json=body, headers=bearer(token))
    assert reply.status in (200, 201), reply


def test_a_refused_request_changes_nothing(start_server):
    server, token, _ = on_every_interface(start_server, seed="5")
    assert call(server, "PATCH", "/api/demo", json={"failRate": 1}).status == 401
    assert call(server, "POST", "/api/demo/faults", json={"on": "page"}).status == 401
    assert call(server, "POST", "/api/demo/items", json={"count": 3}).status == 401
    assert get(server, "/api/demo", headers=bearer(token)).json()["failRate"] == 0
    assert get(server, "/api/demo/faults", headers=bearer(token)).json() == {"pending": []}
    assert get(server, "/api/items?limit=1").json()["items"][0]["id"] == 5


def test_the_rest_of_the_api_needs_no_token(start_server):
    server, _, _ = on_every_interface(start_server, seed="5")
    assert get(server, "/api/items").status == 200
    assert get(server, "/healthz").status == 200


def test_a_token_given_by_flag_or_environment_is_the_one(start_server):
    server, token, _ = on_every_interface(start_server, "--demo-token", "flag-token-1234")
    assert token == "flag-token-1234"
    assert get(server, "/api/demo", headers=bearer("flag-token-1234")).status == 200
    server, token, _ = on_every_interface(start_server, env={"PULLDOWN_DEMO_TOKEN": "env-token-5678"})
    assert token == "env-token-5678"
    assert get(server, "/api/demo", headers=bearer("env-token-5678")).status == 200
    assert get(server, "/api/demo", headers=bearer("flag-token-1234")).status == 401


def test_the_token_never_reaches_the_access_log(start_server):
    server, token, _ = on_every_interface(start_server, quiet=False)
    assert get(server, "/api/demo", headers=bearer(token)).status == 200
    assert get(server, "/api/demo", headers=bearer(token[::-1])).status == 401
    assert call(server, "PATCH", "/api/demo", json={"delayMs": 1}, headers=bearer(token)).status == 200
    def demo_lines():
        return [line["path"] for line in server.access_log() if line["path"].startswith("/api/demo")]
    # A line is written once its answer is sent: wait for the third, not for a time.
    assert wait_until(lambda: len(demo_lines()) >= 3), demo_lines()
    assert demo_lines() == ["/api/demo"] * 3
    assert token not in server.stderr() and token[::-1] not in server.stderr()


def test_on_loopback_the_demo_api_is_open_and_no_presenter_line_is_printed(start_server):
    server = start_server("--demo-token", "flag-token-1234")
    assert get(server, "/api/demo").status == 200
    assert get(server, "/api/demo", headers=bearer("anything-at-all")).status == 200
    assert healthy(server)  # by now everything start-up prints has been printed
    assert "Presenter" not in server.stdout_so_far()


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_demo_api_off_removes_the_endpoints(start_server, host):
    server = start_server("--host", host, "--no-qr", "--demo-api", "off")
    server.host = "127.0.0.1"
    for method, path, body in DEMO_REQUESTS:
        reply = call(server, method, path, json=body)
        assert reply.status == 404, (method, path, reply)
    assert get(server, "/api/items").status == 200
    assert "Presenter" not in server.stdout_so_far(), "no token to print"
