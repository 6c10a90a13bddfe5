"""Schemathesis over the document the server serves, as an outside tester would run it: every
operation with data the document calls valid and data it calls invalid (`--mode all`), every
check (`--checks all`), and the stateful phase, which follows the document's `links` from one
answer to the next request. Derandomized (`--generation-deterministic`) and bounded by the
number of examples, so two runs send the same requests.

Left out, each for something the document cannot express:
- the demo knobs `_fail` and `_delay` are taken out of the copy of the document the run reads:
  a 500 asked for with `_fail=500` is the knob working, and a ten-second `_delay` only slows;
- `GET /api/events` and `GET /api/doctor/events` are streams that never end, so no answer to them
  is ever complete; their HEADs check their heads;
- `PATCH /api/demo`, `POST /api/demo/faults` and the `PUT`s (and a `DELETE`) of network profiles change how every
  other operation answers (a fail rate, delays, queued failures, a slow or offline session), and
  `POST /api/demo/reset` starts the feed over under them (the links' `feed=` then names a feed
  that is gone), so they run in a pass of their own, after the others, which leaves the knobs,
  the profiles and the feed as the server started; so do a script loaded, played or restarted
  and a rate limit set (a script's steps do all of that), and the run ends by loading an empty
  script and lifting the limit;
- a script whose cue names no other step, or with two steps of one name, is a 400 for data the
  schema calls valid (JSON Schema cannot compare one value with another), and so is a duration
  written as a string beyond its field's range, or a window that is not whole seconds: for
  `loadDemoScript`, `advanceDemoClock`, `setDemoRateLimit` and `queueDemoFault` a 400 counts as
  accepting valid data (invalid data must still be refused);
- a 410 counts as accepting valid data: a well-formed `feed=` that is not this server's current
  feed is to feeds what a 404 is to item ids, which Schemathesis accepts for valid data already;
  and so does a 412: an `If-Match` the document calls valid names a version the item may no
  longer be (or never was).
"""
import json
import pathlib
import re
import subprocess
import sys

import pytest

from pulldownkit.raw import healthy
from pulldownkit.server import start_server
from test_hostile_support import assert_no_crash, http_json

KNOBS = {"_fail", "_delay"}
MAX_EXAMPLES = 40
SCHEMATHESIS = pathlib.Path(sys.executable).with_name("st")
CONFIG = """
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "410", "412", "429", "5xx"]

[[operations]]
include-operation-id = ["loadDemoScript", "advanceDemoClock", "setDemoRateLimit", "queueDemoFault"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "409"]
"""
SCRIPTED = ["loadDemoScript", "playDemoScript", "pauseDemoScript", "restartDemoScript", "advanceDemoClock",
            "setDemoRateLimit"]
STEERING = ["patchDemoKnobs", "queueDemoFault", "resetFeed", "setOwnProfile", "setClientProfile", "clearClientProfile",
            *SCRIPTED]
# Every knob back to its start-up value and no fault pending.
RESET_KNOBS = {"delayMs": None, "jitterMs": None, "failRate": None, "newItemsEvery": None, "editsPerMinute": None,
               "deletesPerMinute": None, "shortPages": None, "cursorTtlSeconds": None}


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    folder = tmp_path_factory.mktemp("schemathesis")
    server = start_server(folder, seed=30)
    try:  # a failing setup must stop the server too, or it outlives the run
        status, _, document = http_json(server, "GET", "/api/openapi.json")
        assert status == 200
        for path_item in document["paths"].values():
            for operation in path_item.values():
                if isinstance(operation, dict) and "parameters" in operation:
                    operation["parameters"] = [parameter for parameter in operation["parameters"]
                                               if document_parameter(document, parameter).get("name") not in KNOBS]
        (folder / "openapi.json").write_text(json.dumps(document))
        (folder / "schemathesis.toml").write_text(CONFIG)
        yield server, folder
        assert_no_crash(server)
    finally:
        code = server.stop()
    assert code == 0


def document_parameter(document, parameter):
    """The parameter object itself, following a local `$ref`."""
    while "$ref" in parameter:
        node = document
        for part in parameter["$ref"].removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        parameter = node
    return parameter


def schemathesis(server, folder, *selection):
    """One run of the Schemathesis command line; its exit code and what it printed."""
    done = subprocess.run(
        [str(SCHEMATHESIS), "--config-file", str(folder / "schemathesis.toml"), "run", str(folder / "openapi.json"),
         "--url", server.url, "--checks", "all", "--mode", "all", "--max-examples", str(MAX_EXAMPLES),
         "--generation-deterministic", "--workers", "1", "--request-timeout", "10", "--no-color", *selection],
        cwd=folder, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


def test_every_operation_with_valid_and_invalid_data_and_the_documents_links(api):
    server, folder = api
    steering = [argument for name in STEERING for argument in ("--exclude-operation-id", name)]
    code, output = schemathesis(server, folder, "--exclude-operation-id", "streamEvents",
                                "--exclude-operation-id", "streamDoctorEvents", *steering)
    assert code == 0, output[-6000:]
    # The stateful phase ran scenarios that followed the document's links (a link from an empty
    # page leads nowhere, so not every one is followed in every scenario).
    links = re.search(r"Scenarios: +(\d+)\s+API Links: +(\d+) covered", output)
    assert links and int(links[1]) > 0 and int(links[2]) >= 4, output[-3000:]
    assert healthy(server)


def test_the_operations_that_steer_the_demo_on_their_own(api):
    server, folder = api
    selection = [argument for name in STEERING for argument in ("--include-operation-id", name)]
    try:
        # No links lead from them: every phase but the stateful one.
        code, output = schemathesis(server, folder, "--phases", "examples,coverage,fuzzing", *selection)
        assert code == 0, output[-6000:]
    finally:
        # First, so no step of a script left playing changes what is reset after it.
        assert http_json(server, "PUT", "/api/demo/script", {"steps": []})[0] == 200
        assert http_json(server, "DELETE", "/api/demo/rate-limit")[0] == 200
        assert http_json(server, "PATCH", "/api/demo", RESET_KNOBS)[0] == 200
        assert http_json(server, "DELETE", "/api/demo/faults")[0] == 200
        assert http_json(server, "POST", "/api/demo/reset")[0] == 200
        for client in http_json(server, "GET", "/api/demo/clients")[2]["clients"]:
            if client["profile"]:
                assert http_json(server, "DELETE", f"/api/demo/clients/{client['client']}/profile")[0] == 200
    assert healthy(server)


@pytest.mark.parametrize("body,status", [({"limit": 13.0}, 200), ({"after": 5.0, "limit": 1e1}, 200),
                                         ({"limit": 13.5}, 400), ({"after": 9.3e18}, 400), ({"after": -0.0}, 200),
                                         ({"limit": 1e300}, 400)])
def test_integral_numbers_written_with_a_fraction_count_as_integers(api, body, status):
    # Found by Schemathesis: JSON Schema's "integer" includes 13.0, the server refused it.
    server, _ = api
    assert http_json(server, "POST", "/api/refresh", body)[0] == status
