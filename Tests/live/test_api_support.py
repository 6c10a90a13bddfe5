"""What the API tests check replies with (pulldownkit.client sends the requests).

Named test_api_* so it lives with the API tests; it holds no tests itself.
"""


def with_session(session, headers=None):
    """Headers that send `session` the way a client without cookies does."""
    merged = dict(headers or {})
    merged["X-Session-Id"] = session
    return merged


def assert_problem(reply, status, *names):
    """The reply is an RFC 9457 problem with `status` whose invalid_params name each of `names`."""
    assert reply.status == status, reply
    assert reply.content_type == "application/problem+json", reply
    problem = reply.json()
    assert problem["status"] == status
    for key in ("type", "title", "detail"):
        assert isinstance(problem[key], str) and problem[key], problem
    named = {param["name"] for param in problem.get("invalid_params", [])}
    for name in names:
        assert name in named, (name, problem)
    return problem


def ids(items):
    return [item["id"] for item in items]
