"""Configuration seen from outside: --page-size, PULLDOWN_* variables, flag over variable, usage errors."""
import subprocess

import pytest

from pulldownkit.client import call, get, post
from pulldownkit.server import BINARY
from test_api_support import assert_problem


def test_healthz_is_200_when_the_store_answers(server):
    reply = get(server, "/healthz")
    assert reply.status == 200
    assert reply.json() == {"status": "ok"}
    head = call(server, "HEAD", "/healthz")
    assert head.status == 200
    assert head.body == b""


def test_page_size_sets_the_default_limit_and_the_link(start_server):
    server = start_server("--page-size", "7", seed="20")
    reply = get(server, "/api/items")
    assert reply.json()["limit"] == 7
    assert len(reply.json()["items"]) == 7
    assert reply.header("Link") == f'<{server.url}/api/items?limit=7&before=14&feed={reply.json()["feed"]}>; rel="next"'
    assert len(post(server, "/api/refresh").json()["items"]) == 7
    assert get(server, "/api/items?limit=12").json()["limit"] == 12


def test_page_size_as_flag_equals_value(start_server):
    server = start_server("--page-size=3", seed="20")
    assert get(server, "/api/items").json()["limit"] == 3


def test_an_environment_variable_sets_the_page_size(start_server):
    server = start_server(seed="20", env={"PULLDOWN_PAGE_SIZE": "5"})
    assert get(server, "/api/items").json()["limit"] == 5


def test_a_flag_wins_over_its_environment_variable(start_server):
    server = start_server("--page-size", "8", seed="20", env={"PULLDOWN_PAGE_SIZE": "5"})
    assert get(server, "/api/items").json()["limit"] == 8


def test_variables_set_the_demo_knobs_too(start_server):
    server = start_server(seed="5", env={"PULLDOWN_FAIL_RATE": "1", "PULLDOWN_CORS_ORIGIN": "http://a.test,http://b.test"})
    reply = get(server, "/api/items", headers={"Origin": "http://b.test"})
    assert_problem(reply, 503)
    assert reply.header("Access-Control-Allow-Origin") == "http://b.test"


def run_binary(*args, env=None):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=15,
                          env={"PATH": "/usr/bin:/bin", **(env or {})}, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args,env,mention", [
    (["--page-size", "0"], {}, "--page-size"),
    (["--page-size", "101"], {}, "--page-size"),
    (["--fail-rate", "2"], {}, "--fail-rate"),
    (["--port"], {}, "--port"),
    (["--no-such-flag"], {}, "--no-such-flag"),
    (["--cors-origin", "*"], {}, "--cors-origin"),
    ([], {"PULLDOWN_PAGE_SIZE": "abc"}, "PULLDOWN_PAGE_SIZE"),
    (["--demo-api", "maybe"], {}, "--demo-api"),
    (["--demo-token", "short"], {}, "--demo-token"),
    ([], {"PULLDOWN_DEMO_TOKEN": "has space in it"}, "PULLDOWN_DEMO_TOKEN"),
])
def test_a_bad_command_line_exits_2_with_a_message_naming_the_option(args, env, mention):
    result = run_binary(*args, env=env)
    assert result.returncode == 2, result
    assert mention in result.stderr
    assert result.stdout == ""


def test_help_lists_every_flag_with_its_variable():
    result = run_binary("--help")
    assert result.returncode == 0
    for flag, variable in [("--port", "PULLDOWN_PORT"), ("--db", "PULLDOWN_DB"), ("--page-size", "PULLDOWN_PAGE_SIZE"),
                           ("--delay-ms", "PULLDOWN_DELAY_MS"), ("--fail-rate", "PULLDOWN_FAIL_RATE"),
                           ("--cors-origin", "PULLDOWN_CORS_ORIGIN"), ("--session-ttl-days", "PULLDOWN_SESSION_TTL_DAYS"),
                           ("--new-items-every", "PULLDOWN_NEW_ITEMS_EVERY"), ("--seed", "PULLDOWN_SEED")]:
        assert flag in result.stdout and variable in result.stdout, flag
