"""Unit tests of compat_doc.py: a run of some hosts rewrites only their rows of the document, a
tested host is never written from nothing, and the verdict covers exactly the hosts run and every
control. Stdlib only (`python3 -m unittest discover -s tests/hosts`)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compat_doc  # noqa: E402


def result(host: str, level: str = "produced", version: str = "1.0.0") -> dict:
    return {"host": host, "name": host.title(), "version": version, "level": level,
            "detail": "d", "date": "2026-12-02"}


class CompatDocTest(unittest.TestCase):
    def path(self, text: str) -> str:
        handle, path = tempfile.mkstemp()
        os.close(handle)
        self.addCleanup(os.remove, path)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        return path

    def results(self, *records: dict) -> str:
        return self.path("".join(json.dumps(r) + "\n" for r in records))

    def quiet(self, call, *args):
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return call(*args)

    def test_a_run_of_one_host_keeps_the_other_rows(self):
        doc = self.path("")
        everyone = self.results(*(result(h) for h in compat_doc.TESTED))
        self.assertEqual(compat_doc.write(doc, everyone), 0)
        before = open(doc, encoding="utf-8").read()
        self.assertEqual(compat_doc.write(doc, self.results(result("kimi", version="2.1.0"))), 0)
        after = open(doc, encoding="utf-8").read()
        changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
        self.assertEqual(len(changed), 1)
        self.assertIn("| `kimi` | 2.1.0 | produced |", changed[0][1])

    def test_a_tested_host_is_never_written_without_a_run(self):
        doc = self.path("| Kimi Code | `kimi` | — | configured only | — | not tested: x |\n")
        others = self.results(*(result(h) for h in compat_doc.TESTED if h != "kimi"))
        self.assertEqual(self.quiet(compat_doc.write, doc, others), 1)
        self.assertIn("configured only", open(doc, encoding="utf-8").read())

    def test_the_verdict_covers_the_hosts_run_and_every_control(self):
        run = self.results(result("kimi"))
        stopped = self.results(result("claude", "invoked"), result("kimi", "invoked"))
        self.assertEqual(self.quiet(compat_doc.check, run, stopped, ["kimi"]), 0)
        self.assertEqual(self.quiet(compat_doc.check, run, stopped, None), 1)
        leaked = self.results(result("claude", "invoked"), result("kimi", "produced"))
        self.assertEqual(self.quiet(compat_doc.check, run, leaked, ["kimi"]), 1)
        self.assertEqual(self.quiet(compat_doc.check, run, self.results(), ["kimi"]), 1)


if __name__ == "__main__":
    unittest.main()
