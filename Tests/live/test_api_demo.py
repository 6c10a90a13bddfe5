"""The demo control API: GET and PATCH /api/demo change the knobs of a running server."""
import pytest

from pulldownkit.client import call, get
from pulldownkit.events import Stream
from test_api_support import assert_problem

MERGE_PATCH = {"Content-Type": "application/merge-patch+json"}
# Bounds on undelayed answers only tell "not delayed" from "delayed" (see test_api_knobs.py).
DELAY = 1.0


def patch(server, knobs, headers=MERGE_PATCH):
    return call(server, "PATCH", "/api/demo", json=knobs, headers=headers)


def knobs(server):
    reply = get(server, "/api/demo")
    assert reply.status == 200, reply
    assert reply.content_type == "application/json"
    assert reply.header("Cache-Control") == "no-store"
    return reply.json()


def test_get_answers_the_start_up_knobs(start_server):
    server = start_server("--delay-ms", "20", "--jitter-ms", "5", "--fail-rate", "0.25", new_items_every="2.5")
    assert knobs(server) == {"delayMs": 20, "jitterMs": 5, "failRate": 0.25, "newItemsEvery": 2.5, "editsPerMinute": 0,
                             "deletesPerMinute": 0, "shortPages": 0, "cursorTtlSeconds": 0}


def test_the_environment_gives_start_up_knobs_too(start_server):
    server = start_server(env={"PULLDOWN_DELAY_MS": "30", "PULLDOWN_FAIL_RATE": "0.5", "PULLDOWN_EDITS_PER_MINUTE": "12"})
    assert knobs(server) == {"delayMs": 30, "jitterMs": 0, "failRate": 0.5, "newItemsEvery": 0, "editsPerMinute": 12,
                             "deletesPerMinute": 0, "shortPages": 0, "cursorTtlSeconds": 0}


def test_patch_changes_the_fields_given_and_answers_the_new_state(server):
    before = knobs(server)
    reply = patch(server, {"jitterMs": 7, "failRate": 0.5})
    assert reply.status == 200, reply
    assert reply.header("Cache-Control") == "no-store"
    expected = {**before, "jitterMs": 7, "failRate": 0.5}
    assert reply.json() == expected
    assert knobs(server) == expected


def test_plain_json_is_a_patch_too(server):
    reply = patch(server, {"delayMs": 5}, headers={"Content-Type": "application/json"})
    assert reply.status == 200, reply
    assert knobs(server)["delayMs"] == 5


def test_null_puts_a_knob_back_to_its_start_up_value(start_server):
    server = start_server("--delay-ms", "40")
    assert patch(server, {"delayMs": 900}).json()["delayMs"] == 900
    assert patch(server, {"delayMs": None}).json()["delayMs"] == 40


def test_a_fail_rate_of_one_fails_the_next_request_and_zero_brings_it_back(server):
    assert get(server, "/api/items?limit=1").status == 200
    assert patch(server, {"failRate": 1}).status == 200
    assert_problem(get(server, "/api/items?limit=1"), 503)
    assert_problem(call(server, "POST", "/api/refresh"), 503)
    # The demo API and /healthz are never failed by the knobs.
    assert get(server, "/healthz").status == 200
    assert knobs(server)["failRate"] == 1
    assert patch(server, {"failRate": 0}).status == 200
    assert get(server, "/api/items?limit=1").status == 200


def test_a_delay_holds_from_the_next_request_and_never_delays_the_demo_api(server):
    assert patch(server, {"delayMs": int(DELAY * 1000)}).status == 200
    assert get(server, "/api/items?limit=1").seconds >= DELAY
    assert get(server, "/api/demo").seconds < DELAY
    assert get(server, "/healthz").seconds < DELAY
    reply = patch(server, {"delayMs": 0})
    assert reply.status == 200 and reply.seconds < DELAY
    assert get(server, "/api/items?limit=1").seconds < DELAY


def test_turning_the_generator_on_makes_items_appear(start_server):
    server = start_server(seed="3")  # started with no new items over time
    stream = Stream(server)
    try:
        assert patch(server, {"newItemsEvery": 0.2}).status == 200
        event = stream.next_items(deadline_seconds=30)
        assert event.data["items"][0]["id"] > 3
    finally:
        stream.close()


@pytest.mark.parametrize("body,names", [
    ({"delayMs": -1}, ["delayMs"]),
    ({"delayMs": 600001}, ["delayMs"]),
    ({"delayMs": 1.5}, ["delayMs"]),
    ({"jitterMs": "5"}, ["jitterMs"]),
    ({"failRate": 1.01}, ["failRate"]),
    ({"failRate": True}, ["failRate"]),
    ({"newItemsEvery": -0.5}, ["newItemsEvery"]),
    ({"speed": 3}, ["speed"]),
    ({"delayMs": 5, "failRate": 2, "speed": 3}, ["failRate", "speed"]),
])
def test_a_bad_field_is_a_400_naming_each_and_changes_nothing(server, body, names):
    before = knobs(server)
    problem = assert_problem(patch(server, body), 400, *names)
    assert {param["name"] for param in problem["invalid_params"]} == set(names)
    assert knobs(server) == before


@pytest.mark.parametrize("body,headers", [
    ("{", MERGE_PATCH),
    ("[1]", MERGE_PATCH),
    ("", MERGE_PATCH),
    ('{"delayMs": 5}', {"Content-Type": "text/plain"}),
    ('{"delayMs": 5}', {}),
])
def test_a_body_that_is_no_json_object_is_a_400(server, body, headers):
    before = knobs(server)
    assert_problem(call(server, "PATCH", "/api/demo", body=body, headers=headers), 400)
    assert knobs(server) == before


def test_other_methods_are_405_with_allow(server):
    reply = call(server, "DELETE", "/api/demo")
    assert_problem(reply, 405)
    assert {m.strip() for m in reply.header("Allow").split(",")} == {"GET", "HEAD", "PATCH"}


def test_the_per_request_knobs_do_not_apply_to_the_demo_api(server):
    assert get(server, "/api/demo?_fail=503").status == 200


def test_every_change_is_pushed_as_a_demo_event_with_the_new_state_and_no_id(server):
    streams = [Stream(server), Stream(server)]
    try:
        first = patch(server, {"delayMs": 10}).json()
        second = patch(server, {"failRate": 0.5, "delayMs": None}).json()
        for stream in streams:
            pushed = [stream.next_named("demo"), stream.next_named("demo")]
            assert [event.data for event in pushed] == [first, second]
            assert all(event.id is None for event in pushed), "a knob change is no position in the feed"
    finally:
        for stream in streams:
            stream.close()


def test_a_refused_patch_pushes_nothing_and_items_still_come_with_their_ids(server):
    stream = Stream(server)
    try:
        assert_problem(patch(server, {"delayMs": -1}), 400)
        reply = call(server, "POST", "/api/items", json={"title": "after a refused patch"})
        assert reply.status == 201
        # The first event after `retry` is the item's: the refused patch sent nothing.
        assert stream.next_event().fields == {"retry": "1000"}
        event = stream.next_event()
        assert event.name == "items" and event.id == str(reply.json()["id"])
    finally:
        stream.close()
