"""Start-up on a network address: the URLs a phone can open, and a QR code that reads back as
the first presenter's URL (the first network URL when the demo API is off). Every request here
goes to 127.0.0.1; the network addresses are only read."""
import os
import re
import select
import shutil
import subprocess
import time

import pytest

from pulldownkit.raw import healthy

needs_zbar = pytest.mark.skipif(not shutil.which("zbarimg"), reason="zbar-tools is not installed (make deps-test)")
# The half-block characters: whether each one's (top, bottom) half is drawn in the foreground.
HALF_BLOCKS = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
# A terminal's own (foreground, background) grey levels, 0 black to 255 white, on a light
# background and on a dark one.
THEMES = {"light": (20, 250), "dark": (230, 25)}
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def grey(colour, theme_default):
    """The grey level of an xterm colour number (the basic sixteen, the cube, the greys)."""
    if colour is None:
        return theme_default
    if colour < 16:
        return [0, 128, 128, 128, 0, 128, 0, 192, 128, 255, 255, 255, 128, 255, 128, 255][colour]
    if colour < 232:
        cube = colour - 16
        levels = [0, 95, 135, 175, 215, 255]
        red, green, blue = levels[cube // 36], levels[cube // 6 % 6], levels[cube % 6]
        return (red + green + blue) // 3
    return 8 + (colour - 232) * 10


def cells(line):
    """Each character of `line` with its foreground and background colour numbers (None: the
    terminal's own), following the SGR sequences in it."""
    foreground = background = None
    position = 0
    for match in [*SGR.finditer(line), None]:
        end = match.start() if match else len(line)
        for character in line[position:end]:
            yield character, foreground, background
        if match is None:
            break
        position = match.end()
        codes = [int(code) for code in match.group(1).split(";") if code] or [0]
        index = 0
        while index < len(codes):
            code = codes[index]
            if code == 0:
                foreground = background = None
            elif code in (38, 48) and codes[index + 1] == 5:
                if code == 38:
                    foreground = codes[index + 2]
                else:
                    background = codes[index + 2]
                index += 2
            elif code == 39:
                foreground = None
            elif code == 49:
                background = None
            elif 30 <= code <= 37 or 90 <= code <= 97:
                foreground = code - 30 if code < 90 else code - 82
            elif 40 <= code <= 47 or 100 <= code <= 107:
                background = code - 40 if code < 100 else code - 92
            index += 1


def is_code_row(line):
    return bool(line) and all(character in HALF_BLOCKS for character, _, _ in cells(line))


def rendered(rows, theme):
    """The grey level of every module of the code in `rows`, as a terminal with `theme` shows it."""
    own_foreground, own_background = THEMES[theme]
    modules = []
    for row in rows:
        top, bottom = [], []
        for character, foreground, background in cells(row):
            drawn_top, drawn_bottom = HALF_BLOCKS[character]
            ink, paper = grey(foreground, own_foreground), grey(background, own_background)
            top.append(ink if drawn_top else paper)
            bottom.append(ink if drawn_bottom else paper)
        modules += [top, bottom]
    return modules


def banner(server, until, timeout=10):
    """The lines the server printed after `Listening on`, up to the first that `until` accepts
    (asked once a line, in order); what came after it is kept for `printed_so_far`."""
    received = server.process.stdout.peek() if hasattr(server.process.stdout, "peek") else b""
    received = server.process.stdout.read1(len(received)) if received else b""
    checked = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = received.decode(errors="replace").split("\n")
        for index in range(checked, len(lines) - 1):
            checked = index + 1
            if until(lines[index]):
                server.banner_rest = "\n".join(lines[index + 1:])
                return lines[:index + 1]
        ready, _, _ = select.select([server.process.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(server.process.stdout.fileno(), 65536)
            if not chunk:
                break
            received += chunk
    raise AssertionError(f"the banner did not end: {received.decode(errors='replace')!r}")


def decode_qr(rows, tmp_path, theme):
    """Reads the QR code drawn in `rows`, as a terminal with `theme` shows it, with zbarimg.
    The picture has no margin of its own: the code must bring its quiet zone."""
    modules = rendered(rows, theme)
    scale = 8
    width, height = len(modules[0]) * scale, len(modules) * scale
    pixels = bytearray()
    for line in modules:
        row = b"".join(bytes([level]) * scale for level in line)
        pixels += row * scale
    image = tmp_path / f"code-{theme}.pgm"
    image.write_bytes(f"P5 {width} {height} 255\n".encode() + bytes(pixels))
    result = subprocess.run(["zbarimg", "--raw", "-q", str(image)], capture_output=True, text=True, timeout=30)
    return result.stdout.strip()


def whole_code():
    """A test for `banner`'s `until`: true at the last row of the code, which is square: as many
    rows of modules as characters a row, two rows a line."""
    rows = []

    def until(line):
        if is_code_row(line):
            rows.append(sum(1 for _ in cells(line)))
        return bool(rows) and len(rows) == (rows[0] + 1) // 2
    return until


def banner_with_code(server):
    """The network URLs, the presenter's URLs and the code's rows the server printed."""
    assert server.url.startswith("http://0.0.0.0:")
    code = whole_code()
    lines = banner(server, until=lambda line: code(line) or "no address found" in line)
    networks = [line.removeprefix("On your network: ") for line in lines if line.startswith("On your network: http")]
    if not networks:
        pytest.skip(f"this machine has no network address: {lines}")
    assert all(url.endswith(f":{server.port}/") and "127.0.0.1" not in url for url in networks), networks
    presenters = [line.removeprefix("Presenter: ") for line in lines if line.startswith("Presenter: ")]
    rows = [line for line in lines if is_code_row(line)]
    assert len(rows) > 10, lines
    return networks, presenters, rows, lines


@needs_zbar
def test_on_every_interface_the_qr_code_is_the_first_presenter_url_so_the_phone_can_steer(start_server, tmp_path):
    server = start_server("--host", "0.0.0.0", "--qr")
    networks, presenters, rows, lines = banner_with_code(server)
    assert presenters == [f"{url}#demo={presenters[0].rsplit('#demo=', 1)[1]}" for url in networks]
    for theme in THEMES:
        assert decode_qr(rows, tmp_path, theme) == presenters[0], f"on a {theme} terminal"
    token = presenters[0].rsplit("#demo=", 1)[1]
    assert sum(line.count(token) for line in lines) == len(networks), "printed once per presenter URL, not again"
    # The server itself answers as usual, over loopback.
    assert healthy(server)


@needs_zbar
def test_with_the_demo_api_off_the_qr_code_is_the_first_network_url(start_server, tmp_path):
    server = start_server("--host", "0.0.0.0", "--qr", "--demo-api", "off")
    networks, presenters, rows, _ = banner_with_code(server)
    assert presenters == []
    for theme in THEMES:
        assert decode_qr(rows, tmp_path, theme) == networks[0], f"on a {theme} terminal"


def printed_so_far(server):
    """What the server printed after `Listening on` (or after `banner`'s last line) that is there
    to read now."""
    return getattr(server, "banner_rest", "") + server.stdout_so_far()


def test_on_loopback_it_prints_no_network_url_even_with_qr(start_server):
    server = start_server("--qr")
    assert server.url.startswith("http://127.0.0.1:")
    assert banner(server, until=lambda line: line.startswith("Serving "))[0].startswith("Serving ")
    assert healthy(server)  # by now everything start-up prints has been printed
    assert printed_so_far(server) == "", "what it serves, and nothing more"


def test_no_qr_prints_the_urls_without_a_code(start_server):
    server = start_server("--host", "0.0.0.0", "--no-qr")
    lines = banner(server, until=lambda line: line.startswith("On your network:"))
    assert healthy(server)  # by now everything start-up prints has been printed
    printed = "\n".join(lines) + printed_so_far(server)
    assert not set(printed) & {"█", "▀", "▄"}, printed
