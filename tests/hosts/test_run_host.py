"""Tests of run_host.py with stand-in hosts: a host that hangs, one that escapes into a session
of its own, one that never calls the tool. Each is reported with the level it reached and the
tail of its output, within its bound, and no process outlives the run.

Needs the built binaries: DOTAIOS_BIN_DIR names the directory holding `dotaios` and
`dotaios-mcp` (scripts/test-hosts.sh sets it); without it these tests are skipped.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN_DIR = os.environ.get("DOTAIOS_BIN_DIR")
FOLDER = HERE.parent.parent / "examples/aios"

# A stand-in `claude`: version and `mcp list` answer like the real one; the prompt run does
# what the test asks ($1 of the script body below).
STAND_IN = """#!/bin/sh
case "$1" in
  --version) echo "9.9.9 (stand-in)"; exit 0 ;;
  mcp) echo "dotaios: $(cat "$HOME/.claude.json" | tr -d '\\n ') - Connected"; exit 0 ;;
esac
{body}
"""


class KimiListingTest(unittest.TestCase):
    """Kimi Code's listing: the `mcp.tools_discovered` records of its own session logs."""

    def home_with(self, lines: list[str]) -> Path:
        home = Path(tempfile.mkdtemp(prefix="dotaios-kimi-home-"))
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", str(home)]))
        wire = home / "sessions/wd_work_1/session_1/agents/main/wire.jsonl"
        wire.parent.mkdir(parents=True)
        wire.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return home

    def test_each_discovered_server_is_one_line_with_its_tools(self):
        tools = [{"name": name, "inputSchema": {}} for name in ["read_working_context", "search_aios"]]
        home = self.home_with([
            json.dumps({"type": "turn.started", "serverName": "dotaios"}),
            json.dumps({"type": "tool.result", "output": "mcp.tools_discovered", "serverName": "x"}),
            "{not json",
            json.dumps({"type": "mcp.tools_discovered", "serverName": "other", "tools": []}),
            json.dumps({"type": "mcp.tools_discovered", "serverName": "dotaios", "tools": tools}),
        ])
        sys.path.insert(0, str(HERE))
        import run_host
        self.assertEqual(run_host.kimi_listing(home),
                         "other: \ndotaios: read_working_context, search_aios\n")

    def test_no_session_record_lists_nothing(self):
        sys.path.insert(0, str(HERE))
        import run_host
        home = self.home_with([json.dumps({"type": "turn.started", "serverName": "dotaios"})])
        self.assertEqual(run_host.kimi_listing(home), "")
        self.assertEqual(run_host.kimi_listing(home / "missing"), "")


@unittest.skipUnless(BIN_DIR, "DOTAIOS_BIN_DIR is not set")
class RunHostTest(unittest.TestCase):
    def run_with(self, body: str, timeout: float) -> tuple[dict, float, str]:
        bins = Path(tempfile.mkdtemp(prefix="dotaios-standin-"))
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", str(bins)]))
        host = bins / "claude"
        host.write_text(STAND_IN.format(body=body), encoding="utf-8")
        host.chmod(host.stat().st_mode | stat.S_IXUSR)
        logs = bins / "logs"
        began = time.monotonic()
        done = subprocess.run(
            [sys.executable, str(HERE / "run_host.py"), "--host", "claude",
             "--dotaios", f"{BIN_DIR}/dotaios", "--launcher", f"{BIN_DIR}/dotaios-mcp",
             "--folder", str(FOLDER), "--bins", str(bins), "--query", "nodal corrections",
             "--marker", "37 constituents", "--timeout", str(timeout), "--log-dir", str(logs)],
            capture_output=True, text=True, timeout=timeout + 30,
        )
        elapsed = time.monotonic() - began
        result = json.loads(done.stdout.strip().splitlines()[-1])
        self.assertEqual(done.returncode, 1, "a stand-in never reaches produced")
        return result, elapsed, str(logs)

    def assert_nothing_left(self, tag: str) -> None:
        time.sleep(0.5)
        ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
        self.assertNotIn(tag, ps)

    def test_a_hanging_host_is_killed_at_its_bound_with_its_level_and_tail(self):
        result, elapsed, _ = self.run_with("echo still thinking; exec sleep 301", 6)
        self.assertEqual(result["level"], "configured")
        self.assertIn("killed after 6 s", result["detail"])
        self.assertIn("still thinking", result["tail"])
        self.assertEqual(result["version"], "9.9.9")
        self.assertLess(elapsed, 6 + 10)
        self.assert_nothing_left("sleep 301")

    def test_a_process_in_a_new_session_is_found_and_killed(self):
        body = "setsid sleep 302 </dev/null >/dev/null 2>&1 &\nsleep 1; echo started; exit 0"
        result, _, _ = self.run_with(body, 20)
        self.assertEqual(result["level"], "configured")
        self.assertGreaterEqual(result.get("leftover_processes", 0), 1)
        self.assert_nothing_left("sleep 302")

    def test_a_host_that_never_calls_the_tool_stops_at_configured(self):
        result, _, logs = self.run_with("echo 'I will not call tools'; exit 3", 20)
        self.assertEqual(result["level"], "configured")
        self.assertIn("exit=3", result["detail"])
        self.assertIn("call_sent=False", result["detail"])
        self.assertIn("I will not call tools", result["tail"])
        self.assertTrue(os.path.exists(os.path.join(logs, "claude.requests.jsonl")))


if __name__ == "__main__":
    unittest.main()
