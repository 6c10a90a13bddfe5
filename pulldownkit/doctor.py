"""What a server's client doctor says (GET /api/doctor), for the live tests and the browser
suite's end-of-run check."""
from pulldownkit.client import get


def clients(server, headers=None):
    """Every client the doctor keeps, the one seen last first; None when the doctor is off.
    Beyond loopback it sends the server's --demo-token, when it was started with one."""
    args = getattr(server, "args", [])
    if headers is None and "--demo-token" in args:
        headers = {"Authorization": f"Bearer {args[args.index('--demo-token') + 1]}"}
    reply = get(server, "/api/doctor", headers=headers)
    if reply.status in (401, 404):
        return None
    assert reply.status == 200, reply
    return reply.json()["clients"]


def findings(client):
    """{rule: count} of one client."""
    return {finding["rule"]: finding["count"] for finding in client["findings"]}


def browser_findings(server):
    """The findings of every client whose User-Agent is a Chromium's, each with one example:
    ["rule ×count: METHOD URL STATUS (client id)", …]; [] when the doctor is off or, beyond
    loopback, keeps its clients to the holder of a token the server was not started with."""
    found = []
    for client in clients(server) or []:
        if "Chrome" not in client["userAgent"]:
            continue
        for finding in client["findings"]:
            example = finding["example"]
            found.append(f"{finding['rule']} ×{finding['count']}: {example['method']} {example['url']} "
                         f"{example['status']} (client {client['id']})")
    return found
