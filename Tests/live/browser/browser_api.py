"""Direct API calls for browser-test setup (imported by name: conftest modules shadow each other)."""
from pulldownkit.client import call


def api(server, method, path, body=None):
    """Calls the API directly, outside the browser (test setup only); (status, parsed JSON)."""
    reply = call(server, method, path, json=body, headers={"Content-Type": "application/json"}, timeout=10)
    if reply.status >= 400:
        raise AssertionError(f"{method} {path}: {reply.status} {reply.body[:300]!r}")
    return reply.status, reply.json() if reply.body else None
