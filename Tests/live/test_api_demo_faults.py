"""One-shot faults: POST /api/demo/faults fails the next N requests of one kind, then none."""
import pytest

from pulldownkit.client import call, get
from pulldownkit.events import Stream
from test_api_support import assert_problem

REQUESTS = {
    "refresh": ("POST", "/api/refresh"),
    "page": ("GET", "/api/items?limit=1"),
    "post": ("POST", "/api/items"),
    "events": ("GET", "/api/events"),
}


def send(server, on):
    method, path = REQUESTS[on]
    if on == "post":
        return call(server, method, path, json={"title": "a post"})
    if on == "events":
        stream = Stream(server)
        stream.close()
        return stream.status
    return call(server, method, path)


def status_of(reply):
    return reply if isinstance(reply, int) else reply.status


def queue(server, fault):
    return call(server, "POST", "/api/demo/faults", json=fault)


def pending(server):
    reply = get(server, "/api/demo/faults")
    assert reply.status == 200, reply
    assert reply.header("Cache-Control") == "no-store"
    return reply.json()["pending"]


@pytest.mark.parametrize("on", list(REQUESTS))
def test_a_fault_fails_the_next_count_requests_of_its_kind_then_none(server, on):
    reply = queue(server, {"on": on, "status": 500, "count": 2})
    assert reply.status == 201, reply
    assert reply.header("Cache-Control") == "no-store"
    assert reply.json() == {"pending": [{"on": on, "status": 500, "count": 2}]}
    assert [status_of(send(server, on)) for _ in range(3)] == [500, 500, 200 if on != "post" else 201]
    assert pending(server) == []


@pytest.mark.parametrize("on", list(REQUESTS))
def test_a_fault_on_one_kind_leaves_the_others_alone(server, on):
    assert queue(server, {"on": on, "status": 503, "count": 1}).status == 201
    for other in REQUESTS:
        if other != on:
            assert status_of(send(server, other)) in (200, 201), other
    assert pending(server) == [{"on": on, "status": 503, "count": 1}]


@pytest.mark.parametrize("status,retry_after", [(429, True), (500, False), (503, True)])
def test_the_failure_is_a_problem_with_retry_after_where_it_applies(server, status, retry_after):
    assert queue(server, {"on": "refresh", "status": status}).status == 201
    reply = call(server, "POST", "/api/refresh")
    problem = assert_problem(reply, status)
    assert "POST /api/demo/faults" in problem["detail"]
    assert (reply.header("Retry-After") == "1") == retry_after


def test_a_failed_post_stores_nothing(server):
    newest = get(server, "/api/items?limit=1").json()["items"][0]["id"]
    assert queue(server, {"on": "post", "status": 503}).status == 201
    assert_problem(call(server, "POST", "/api/items", json={"title": "never stored"}), 503)
    assert get(server, "/api/items?limit=1").json()["items"][0]["id"] == newest


def test_status_and_count_default_to_503_once(server):
    assert queue(server, {"on": "page"}).json() == {"pending": [{"on": "page", "status": 503, "count": 1}]}


def test_get_lists_what_is_pending_in_order_and_delete_clears_it(server):
    queue(server, {"on": "page", "status": 429, "count": 3})
    queue(server, {"on": "refresh", "status": 500, "count": 1})
    assert status_of(send(server, "page")) == 429
    assert pending(server) == [{"on": "page", "status": 429, "count": 2},
                               {"on": "refresh", "status": 500, "count": 1}]
    reply = call(server, "DELETE", "/api/demo/faults")
    assert reply.status == 200 and reply.json() == {"pending": []}
    assert pending(server) == []
    assert status_of(send(server, "page")) == 200
    assert status_of(send(server, "refresh")) == 200


def test_a_request_refused_for_its_query_uses_up_no_fault(server):
    queue(server, {"on": "page", "status": 500, "count": 1})
    assert_problem(get(server, "/api/items?_delay=abc"), 400, "_delay")
    assert pending(server) == [{"on": "page", "status": 500, "count": 1}]


def test_faults_never_fail_the_demo_api_or_healthz(server):
    for on in REQUESTS:
        queue(server, {"on": on, "status": 500, "count": 5})
    assert get(server, "/healthz").status == 200
    assert get(server, "/api/demo").status == 200
    assert get(server, "/api/session").status == 200
    assert get(server, "/api/items/3").status == 200


@pytest.mark.parametrize("body,names", [
    ({}, ["on"]),
    ({"on": "pages"}, ["on"]),
    ({"on": 1}, ["on"]),
    ({"on": "page", "status": 404}, ["status"]),
    ({"on": "page", "status": "503"}, ["status"]),
    ({"on": "page", "count": 0}, ["count"]),
    ({"on": "page", "count": 1001}, ["count"]),
    ({"on": "page", "count": 1.5}, ["count"]),
    ({"on": "page", "when": "now"}, ["when"]),
    ({"on": "x", "status": 200, "count": -1}, ["on", "status", "count"]),
])
def test_a_bad_fault_is_a_400_naming_each_field_and_queues_nothing(server, body, names):
    problem = assert_problem(queue(server, body), 400, *names)
    assert {param["name"] for param in problem["invalid_params"]} == set(names)
    assert pending(server) == []


def test_a_body_that_is_no_json_object_is_a_400(server):
    assert_problem(call(server, "POST", "/api/demo/faults", body="{", headers={"Content-Type": "application/json"}), 400)
    assert_problem(call(server, "POST", "/api/demo/faults", body='{"on": "page"}'), 400, "Content-Type")
    assert pending(server) == []


def test_other_methods_are_405_with_allow(server):
    reply = call(server, "PATCH", "/api/demo/faults", json={})
    assert_problem(reply, 405)
    assert {m.strip() for m in reply.header("Allow").split(",")} == {"GET", "HEAD", "POST", "DELETE"}
