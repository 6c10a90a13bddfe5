"""What a server's client doctor says (GET /api/doctor), for the live tests and the browser
suite's end-of-run check."""
from pulldownkit.client import get


def clients(server, headers=None):
    """Every client the doctor keeps, the one seen last first; None when the doctor is off."""
    reply = get(server, "/api/doctor", headers=headers)
    if reply.status == 404:
        return None
    assert reply.status == 200, reply
    return reply.json()["clients"]


def findings(client):
    """{rule: count} of one client."""
    return {finding["rule"]: finding["count"] for finding in client["findings"]}


def browser_findings(server):
    """The findings of every client whose User-Agent is a Chromium's, each with one example:
    ["rule ×count: METHOD URL (client id)", …]; [] when the doctor is off."""
    found = []
    for client in clients(server) or []:
        if "Chrome" not in client["userAgent"]:
            continue
        for finding in client["findings"]:
            example = finding["example"]
            found.append(f"{finding['rule']} ×{finding['count']}: {example['method']} {example['url']} "
                         f"{example['status']} (client {client['id']})")
    return found
