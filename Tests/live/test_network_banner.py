"""Start-up on a network address: the URLs a phone can open, and a QR code that reads back as
the first presenter's URL (the first network URL when the demo API is off). Every request here
goes to 127.0.0.1; the network addresses are only read."""
import os
import select
import shutil
import subprocess
import time

import pytest

from pulldownkit.raw import healthy

needs_zbar = pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools is not installed (make deps-test)")
# The half-block characters: the light (top, bottom) modules each one stands for.
HALF_BLOCKS = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def banner(server, until, timeout=10):
    """The lines the server printed after `Listening on`, up to the first that `until` accepts."""
    received = server.process.stdout.peek() if hasattr(server.process.stdout, "peek") else b""
    received = server.process.stdout.read1(len(received)) if received else b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = received.decode(errors="replace").split("\n")
        for index, line in enumerate(lines[:-1]):
            if until(line):
                return lines[:index + 1]
        ready, _, _ = select.select([server.process.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(server.process.stdout.fileno(), 65536)
            if not chunk:
                break
            received += chunk
    raise AssertionError(f"the banner did not end: {received.decode(errors='replace')!r}")


def decode_qr(rows, tmp_path):
    """Reads the QR code drawn in `rows` with zbarimg: each character is two modules, one above
    the other; drawn ones are light."""
    modules = []
    for row in rows:
        pairs = [HALF_BLOCKS[character] for character in row]
        modules.append([top for top, _ in pairs])
        modules.append([bottom for _, bottom in pairs])
    scale, border = 8, 4
    width = (len(modules[0]) + 2 * border) * scale
    height = (len(modules) + 2 * border) * scale
    pixels = bytearray([255]) * (width * height)
    for y, line in enumerate(modules):
        for x, light in enumerate(line):
            if not light:
                for dy in range(scale):
                    start = ((y + border) * scale + dy) * width + (x + border) * scale
                    pixels[start:start + scale] = bytes(scale)
    image = tmp_path / "code.pgm"
    image.write_bytes(f"P5 {width} {height} 255\n".encode() + bytes(pixels))
    result = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True, timeout=30)
    return result.stdout.strip()


def banner_with_code(server):
    """The network URLs, the presenter's URLs and the code's rows the server printed."""
    assert server.url.startswith("http://0.0.0.0:")
    lines = banner(server, until=lambda line: line.startswith("▀") or line == "" or "no address found" in line)
    networks = [line.removeprefix("On your network: ") for line in lines if line.startswith("On your network: http")]
    if not networks:
        pytest.skip(f"this machine has no network address: {lines}")
    assert all(url.endswith(f":{server.port}/") and "127.0.0.1" not in url for url in networks), networks
    presenters = [line.removeprefix("Presenter: ") for line in lines if line.startswith("Presenter: ")]
    rows = [line for line in lines if line and set(line) <= set(HALF_BLOCKS)]
    assert len(rows) > 10, lines
    return networks, presenters, rows, lines


@needs_zbar
def test_on_every_interface_the_qr_code_is_the_first_presenter_url_so_the_phone_can_steer(start_server, tmp_path):
    server = start_server("--host", "0.0.0.0", "--qr")
    networks, presenters, rows, lines = banner_with_code(server)
    assert presenters == [f"{url}#demo={presenters[0].rsplit('#demo=', 1)[1]}" for url in networks]
    assert decode_qr(rows, tmp_path) == presenters[0]
    token = presenters[0].rsplit("#demo=", 1)[1]
    assert sum(line.count(token) for line in lines) == len(networks), "printed once per presenter URL, not again"
    # The server itself answers as usual, over loopback.
    assert healthy(server)


@needs_zbar
def test_with_the_demo_api_off_the_qr_code_is_the_first_network_url(start_server, tmp_path):
    server = start_server("--host", "0.0.0.0", "--qr", "--demo-api", "off")
    networks, presenters, rows, _ = banner_with_code(server)
    assert presenters == []
    assert decode_qr(rows, tmp_path) == networks[0]


def test_on_loopback_it_prints_no_network_url_even_with_qr(start_server):
    server = start_server("--qr")
    assert server.url.startswith("http://127.0.0.1:")
    assert healthy(server)  # by now everything start-up prints has been printed
    ready, _, _ = select.select([server.process.stdout], [], [], 0)
    printed = os.read(server.process.stdout.fileno(), 65536).decode() if ready else ""
    assert printed.startswith("Serving ") and printed.count("\n") == 1, "what it serves, and nothing more"


def test_no_qr_prints_the_urls_without_a_code(start_server):
    server = start_server("--host", "0.0.0.0", "--no-qr")
    lines = banner(server, until=lambda line: line.startswith("On your network:"))
    assert healthy(server)  # by now everything start-up prints has been printed
    ready, _, _ = select.select([server.process.stdout], [], [], 0)
    extra = os.read(server.process.stdout.fileno(), 65536).decode() if ready else ""
    assert not set(extra) & {"█", "▀", "▄"}, (lines, extra)
