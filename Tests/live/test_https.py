"""--https: TLS by libmicrohttpd with a certificate from the machine's own authority, kept beside the
store; plain HTTP on the port gets the trust page and its downloads, and a redirect for the rest.
Every request goes to loopback; network addresses are only read."""
import plistlib
import re
import shutil
import socket
import ssl
import subprocess
import time

import pytest

from pulldownkit.client import call, get, post
from pulldownkit.events import Stream
from pulldownkit.raw import exchange, free_port, read_until_close, status_of
from pulldownkit.waiting import wait_until
from test_api_openapi import Contract
from test_network_banner import banner

needs_openssl = pytest.mark.skipif(not shutil.which("openssl"), reason="openssl is not installed")


def tls_server(start_server, tmp_path, *args, **kwargs):
    """A server started with --https on a store in tmp_path, its CA in feed.sqlite.tls, and a TLS
    context trusting that CA alone."""
    server = start_server("--https", *args, **kwargs)
    assert server.url.startswith("https://"), server.url
    server.ca = tmp_path / "feed.sqlite.tls" / "ca.pem"
    server.tls = ssl.create_default_context(cafile=str(server.ca))
    return server


def plain(server, port=None):
    """The same server spoken to in plain HTTP (on `port`, else its own)."""
    return type("Plain", (), {"host": server.host, "port": port or server.port, "tls": None})()


def curl(*args):
    return subprocess.run(["curl", "-sS", "--max-time", "10", *args], capture_output=True, text=True, timeout=20)


def served_names(server, host="127.0.0.1"):
    """The subject alternative names of the certificate the server sends, read back by openssl."""
    with socket.create_connection((host, server.port), timeout=5) as raw:
        with server.tls.wrap_socket(raw, server_hostname=host) as sock:
            der = sock.getpeercert(binary_form=True)
    text = subprocess.run(["openssl", "x509", "-inform", "DER", "-noout", "-ext", "subjectAltName"],
                          input=der, capture_output=True, timeout=10).stdout.decode()
    return {name.strip().removeprefix("DNS:").removeprefix("IP Address:") for name in text.splitlines()[1].split(",")}


def test_curl_trusts_the_server_given_the_ca_and_refuses_it_without(start_server, tmp_path):
    server = tls_server(start_server, tmp_path)
    trusted = curl("--cacert", str(server.ca), f"https://127.0.0.1:{server.port}/healthz")
    assert trusted.returncode == 0, trusted.stderr
    assert trusted.stdout == '{"status":"ok"}'
    untrusted = curl(f"https://127.0.0.1:{server.port}/healthz")
    assert untrusted.returncode == 60, (untrusted.returncode, untrusted.stderr)  # peer certificate cannot be authenticated
    assert "certificate" in untrusted.stderr
    by_name = curl("--cacert", str(server.ca), f"https://localhost:{server.port}/healthz")
    assert by_name.returncode == 0, by_name.stderr
    assert server.crashes() == []


@needs_openssl
def test_the_certificate_covers_loopback_and_every_address_listened_on(start_server, tmp_path):
    server = tls_server(start_server, tmp_path, "--host", "0.0.0.0", "--no-qr")
    lines = banner(server, until=lambda line: line.startswith("On your network: no address") or line.startswith("Trust it"))
    networks = [re.match(r"On your network: https://(.+):\d+/$", line)[1] for line in lines if line.startswith("On your network: https")]
    assert {"localhost", "127.0.0.1", "0:0:0:0:0:0:0:1"} | set(networks) <= served_names(server)
    assert any(line.startswith(f"HTTPS: issued a server certificate for localhost, 127.0.0.1, ::1") for line in lines), lines
    # The same names are in the file the next start reads, and the key beside it is the owner's alone.
    folder = tmp_path / "feed.sqlite.tls"
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    assert oct((folder / "ca-key.pem").stat().st_mode & 0o777) == "0o600"
    assert oct((folder / "server-key.pem").stat().st_mode & 0o777) == "0o600"


def test_a_second_start_reuses_the_ca_and_a_new_address_gets_a_new_certificate(start_server, tmp_path):
    first = tls_server(start_server, tmp_path)
    folder = tmp_path / "feed.sqlite.tls"
    root, leaf = (folder / "ca.pem").read_bytes(), (folder / "server.pem").read_bytes()
    first.stop()
    second = tls_server(start_server, tmp_path)
    assert (folder / "ca.pem").read_bytes() == root
    assert (folder / "server.pem").read_bytes() == leaf, "the same names: the same certificate"
    assert get(second, "/healthz").status == 200
    second.stop()
    # 127.0.0.2 is loopback too (Linux routes 127/8 to lo), and a name the certificate lacks.
    third = tls_server(start_server, tmp_path, "--host", "127.0.0.2")
    lines = banner(third, until=lambda line: line.startswith("HTTPS: to trust it"))
    assert "HTTPS: issued a server certificate for localhost, 127.0.0.1, ::1, 127.0.0.2 (new name: 127.0.0.2)" in lines
    assert (folder / "ca.pem").read_bytes() == root
    assert (folder / "server.pem").read_bytes() != leaf
    assert get(third, "/healthz").status == 200, "the new name is trusted through the same root"


def test_plain_http_on_the_https_port_is_redirected_to_https(start_server, tmp_path):
    server = tls_server(start_server, tmp_path, seed="5")
    reply = get(plain(server), "/api/items?limit=2&before=4")
    assert reply.status == 307
    assert reply.header("Location") == f"https://127.0.0.1:{server.port}/api/items?limit=2&before=4"
    assert reply.header("Cache-Control") == "no-store"
    assert reply.header("Strict-Transport-Security") is None
    assert b"This port speaks HTTPS" in reply.body
    # A POST keeps its method through a 307; curl -L follows it and gets the real answer.
    followed = curl("-L", "--cacert", str(server.ca), "-X", "POST", "-H", "Content-Type: application/json",
                    "-d", '{"title": "over the redirect"}', f"http://127.0.0.1:{server.port}/api/items")
    assert '"title":"over the redirect"' in followed.stdout, followed
    # Without a Host there is nowhere to send it: a clear 400, and the server goes on.
    assert status_of(exchange(server, b"GET / HTTP/1.0\r\n\r\n")) == 400
    assert get(server, "/healthz").status == 200


def test_the_trust_page_and_its_downloads_come_over_plain_http_with_their_types(start_server, tmp_path):
    server = tls_server(start_server, tmp_path)
    page = get(plain(server), "/trust")
    assert page.status == 200
    assert page.content_type == "text/html"
    assert page.header("Content-Security-Policy")
    assert b'href="/trust/pulldown-ca.mobileconfig"' in page.body and b'href="/trust/pulldown-ca.crt"' in page.body
    script = get(plain(server), "/trust.js")
    assert (script.status, script.content_type) == (200, "text/javascript")
    root = server.ca.read_bytes()
    der = subprocess.run(["openssl", "x509", "-outform", "DER"], input=root, capture_output=True, timeout=10).stdout
    pem = get(plain(server), "/trust/pulldown-ca.pem")
    assert (pem.status, pem.content_type, pem.body) == (200, "application/x-pem-file", root)
    assert pem.header("Content-Disposition") == 'attachment; filename="pulldown-ca.pem"'
    crt = get(plain(server), "/trust/pulldown-ca.crt")
    assert (crt.status, crt.content_type, crt.body) == (200, "application/x-x509-ca-cert", der)
    profile = get(plain(server), "/trust/pulldown-ca.mobileconfig")
    assert (profile.status, profile.content_type) == (200, "application/x-apple-aspen-config")
    plist = plistlib.loads(profile.body)
    assert plist["PayloadType"] == "Configuration"
    [payload] = plist["PayloadContent"]
    assert payload["PayloadType"] == "com.apple.security.root"
    assert payload["PayloadContent"] == der
    assert plist["PayloadUUID"] != payload["PayloadUUID"]
    assert get(plain(server), "/trust/pulldown-ca.mobileconfig").body == profile.body, "one root, one profile"
    contract = Contract(get(server, "/api/openapi.json").json())
    for path in ["/trust", "/trust/pulldown-ca.pem", "/trust/pulldown-ca.crt", "/trust/pulldown-ca.mobileconfig", "/trust/open"]:
        for method in ["GET", "HEAD"]:
            contract.check(path, method, call(plain(server), method, path))
    # The same downloads over HTTPS, and the way on from the page to the page over HTTPS.
    assert get(server, "/trust/pulldown-ca.pem").body == root
    onward = get(plain(server), "/trust/open")
    assert (onward.status, onward.header("Location")) == (303, f"https://127.0.0.1:{server.port}/")


def test_with_an_https_port_plain_http_serves_everything_on_the_other(start_server, tmp_path):
    https_port = free_port()
    server = start_server("--https-port", str(https_port), seed="5")
    assert server.url.startswith("http://")
    second = server.process.stdout.readline().decode().strip()
    assert second == f"Listening on https://127.0.0.1:{https_port}"
    secure = type("Secure", (), {"host": "127.0.0.1", "port": https_port,
                                 "tls": ssl.create_default_context(cafile=str(tmp_path / "feed.sqlite.tls" / "ca.pem"))})()
    assert get(server, "/api/items?limit=2").status == 200, "plain HTTP is served whole on --port"
    over_tls, over_plain = get(secure, "/api/items?limit=2").json(), get(server, "/api/items?limit=2").json()
    assert [i["id"] for i in over_tls["items"]] == [i["id"] for i in over_plain["items"]]
    assert over_tls["items"][0]["avatar"].startswith(f"https://127.0.0.1:{https_port}/media/demo/"), "links as it was reached"
    assert over_plain["items"][0]["avatar"].startswith(f"http://127.0.0.1:{server.port}/media/demo/")
    on_https_port = get(plain(server, https_port), "/api/items")
    assert (on_https_port.status, on_https_port.header("Location")) == (307, f"https://127.0.0.1:{https_port}/api/items")
    onward = get(server, "/trust/open")
    assert onward.header("Location") == f"https://127.0.0.1:{https_port}/"
    # A session made over plain HTTP has no Secure cookie; one made over HTTPS has.
    assert "Secure" not in post(server, "/api/refresh").header("Set-Cookie")
    assert "; Secure;" in post(secure, "/api/refresh").header("Set-Cookie")


def test_sessions_events_and_the_demo_token_work_the_same_over_tls(start_server, tmp_path):
    server = tls_server(start_server, tmp_path, "--host", "0.0.0.0", "--no-qr", "--demo-token", "tls-demo-token", seed="3")
    server.host = "127.0.0.1"
    refreshed = post(server, "/api/refresh", json={})
    assert refreshed.status == 200
    cookie = refreshed.header("Set-Cookie")
    assert cookie.startswith("pulldown_session=") and "; HttpOnly; Secure; SameSite=Lax" in cookie
    session = refreshed.session
    remembered = get(server, "/api/session", headers={"Cookie": cookie.split(";")[0]})
    assert remembered.session == session and remembered.json()["refreshCount"] == 1
    stream = Stream(server)
    try:
        assert stream.status == 200 and stream.headers["content-type"].startswith("text/event-stream")
        post(server, "/api/items", json={"title": "pushed over TLS"})
        event = stream.next_items()
        assert event.data["items"][0]["title"] == "pushed over TLS"
    finally:
        stream.close()
    patch = {"Content-Type": "application/merge-patch+json"}
    assert call(server, "PATCH", "/api/demo", body='{"failRate":0}', headers=patch).status == 401
    steered = call(server, "PATCH", "/api/demo", body='{"delayMs":5}',
                   headers={**patch, "Authorization": "Bearer tls-demo-token"})
    assert steered.status == 200 and steered.json()["delayMs"] == 5


def test_cors_for_an_https_origin_over_tls(start_server, tmp_path):
    origin = "https://app.example"
    server = tls_server(start_server, tmp_path, "--cors-origin", origin)
    preflight = call(server, "OPTIONS", "/api/refresh", headers={"Origin": origin, "Access-Control-Request-Method": "POST"})
    assert preflight.status == 204
    assert preflight.header("Access-Control-Allow-Origin") == origin
    answer = post(server, "/api/refresh", headers={"Origin": origin})
    assert answer.header("Access-Control-Allow-Origin") == origin
    assert answer.header("Access-Control-Allow-Credentials") == "true"


def test_silent_and_broken_connections_on_the_tls_port_cost_nothing(start_server, tmp_path):
    server = tls_server(start_server, tmp_path, "--connection-timeout", "1", "--connection-limit", "2")
    silent = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(2)]
    # Two silent connections fill the limit until their first byte's time runs out; then they are closed.
    for sock in silent:
        assert read_until_close(sock, timeout=10) == b""
    # A record that starts like TLS and is not: the handshake fails, the connection closes.
    broken = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    broken.sendall(b"\x16\x03\x01\x00\x05hello" + b"\x00" * 64)
    read_until_close(broken, timeout=10)
    # A client that connects and leaves at once.
    socket.create_connection(("127.0.0.1", server.port), timeout=10).close()
    assert wait_until(lambda: get(server, "/healthz", timeout=5).status == 200)
    assert server.crashes() == []


def test_https_needs_a_folder_it_can_write(start_server, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    with pytest.raises(RuntimeError, match="is not a folder"):
        start_server("--https", "--tls-dir", str(blocker))


def test_sigterm_with_silent_tls_and_plain_connections_and_an_open_stream_exits_0_quickly(start_server, tmp_path):
    server = tls_server(start_server, tmp_path, seed="3")
    silent = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(3)]
    plain_idle = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    plain_idle.sendall(b"GET /trust HTTP/1.1\r\nHost: x\r\n\r\n")
    assert b"200 OK" in plain_idle.recv(65536)
    stream = Stream(server)
    assert stream.status == 200
    started = time.monotonic()
    assert server.stop() == 0
    assert time.monotonic() - started < 3
    for sock in [*silent, plain_idle]:
        assert read_until_close(sock, timeout=5) in (b"", b"\x15\x03\x03\x00\x02\x02\x00")  # closed, at most after an alert
        sock.close()
    stream.close()
    assert server.crashes() == []
