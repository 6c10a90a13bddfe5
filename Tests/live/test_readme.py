"""The README's curl lines run as written, in order, against a real server (only its address
changed): every variable they use is set by a line before, and each command succeeds."""
import re
import subprocess

from pulldownkit.server import REPO

# Streams stay open: given a second, they are cut off (curl's exit 28) after what came first.
STREAMING = re.compile(r"^curl -N (.*)$", re.M)


def curl_block(heading="## Trying the API with curl"):
    """The first shell block after `heading` in the README."""
    readme = (REPO / "README.md").read_text()
    section = readme.split(heading, 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_the_readmes_curl_lines_run_as_written(start_server):
    server = start_server(seed="50")
    script = curl_block().replace("localhost:8080", f"127.0.0.1:{server.port}")
    script = STREAMING.sub(r"curl -N --max-time 1 \1 || [ $? = 28 ]", script)
    # Each command may fail only loudly: an unset variable or a failed command stops the run.
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script + "\necho; echo \"session=$SESSION\""],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"{run.stderr}\n{script}"
    session = re.search(r"^session=(.*)$", run.stdout, re.M).group(1)
    assert re.fullmatch(r"[0-9a-f]{64}", session), f"SESSION is {session!r}"
    # The session the lines kept is the one that refreshed, twice.
    assert re.search(r'"refreshCount"\s*:\s*2\b', run.stdout), run.stdout[-2000:]


def test_the_slow_phone_lines_run_as_written_and_slow_only_the_phone(start_server):
    server = start_server(seed="150")
    script = curl_block("### A slow phone, a fast laptop").replace("localhost:8080", f"127.0.0.1:{server.port}")
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"{run.stderr}\n{script}"
    head = float(re.search(r"phone: ([\d.]+) s to the head", run.stdout).group(1))
    laptop = float(re.search(r"^laptop: ([\d.]+) s$", run.stdout, re.M).group(1))
    # The phone's head waits its latency; the laptop's whole answer comes sooner, busy machine or not.
    assert head >= 0.4 * 0.85 and laptop < head, run.stdout
    assert "503, Retry-After: 10" in run.stdout, run.stdout


def test_the_paging_lines_run_as_written(start_server):
    server = start_server(seed="600")
    script = curl_block("## Paging as clients ask for it").replace("localhost:8080", f"127.0.0.1:{server.port}")
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"{run.stderr}\n{script}"
    assert '"prev":505' in run.stdout and '"next":496' in run.stdout
    assert '"anchor":{"id":500,"found":true}' in run.stdout
    assert '"rangeDone":false' in run.stdout and '"next":490' in run.stdout
    assert "X-Total-Count: 600" in run.stdout
