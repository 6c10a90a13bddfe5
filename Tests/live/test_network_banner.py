"""Start-up on a network address: the URLs a phone can open, and a QR code that reads back as
the first of them. Every request here goes to 127.0.0.1; the network addresses are only read."""
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


@needs_zbar
def test_on_every_interface_it_prints_network_urls_and_a_qr_code_of_the_first(start_server, tmp_path):
    server = start_server("--host", "0.0.0.0", "--qr")
    assert server.url.startswith("http://0.0.0.0:")
    lines = banner(server, until=lambda line: line.startswith("▀") or line == "" or "no address found" in line)
    networks = [line.removeprefix("On your network: ") for line in lines if line.startswith("On your network: http")]
    if not networks:
        pytest.skip(f"this machine has no network address: {lines}")
    assert all(url.endswith(f":{server.port}/") and "127.0.0.1" not in url for url in networks), networks
    rows = [line for line in lines if line and set(line) <= set(HALF_BLOCKS)]
    assert len(rows) > 10, lines
    assert decode_qr(rows, tmp_path) == networks[0]
    # The server itself answers as usual, over loopback.
    assert healthy(server)


def test_on_loopback_it_prints_no_network_url_even_with_qr(start_server):
    server = start_server("--qr")
    assert server.url.startswith("http://127.0.0.1:")
    assert healthy(server)  # by now everything start-up prints has been printed
    ready, _, _ = select.select([server.process.stdout], [], [], 0)
    assert not ready or os.read(server.process.stdout.fileno(), 65536) == b""


def test_no_qr_prints_the_urls_without_a_code(start_server):
    server = start_server("--host", "0.0.0.0", "--no-qr")
    lines = banner(server, until=lambda line: line.startswith("On your network:"))
    assert healthy(server)  # by now everything start-up prints has been printed
    ready, _, _ = select.select([server.process.stdout], [], [], 0)
    extra = os.read(server.process.stdout.fileno(), 65536).decode() if ready else ""
    assert not set(extra) & {"█", "▀", "▄"}, (lines, extra)
