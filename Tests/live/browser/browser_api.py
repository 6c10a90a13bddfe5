"""Direct API calls for browser-test setup (imported by name: conftest modules shadow each other)."""
import json
import urllib.error
import urllib.request


def api(server, method, path, body=None):
    """Calls the API directly, outside the browser (test setup only)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as res:
            return res.status, json.loads(res.read() or b"null")
    except urllib.error.HTTPError as e:
        raise AssertionError(f"{method} {path}: {e.code} {e.read()[:300]!r}") from None
