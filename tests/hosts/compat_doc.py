"""Turns host-run results (JSON lines from run_host.py) into lines, a verdict, or docs/compatibility.md.

It owns the wording of the evidence table: the one place the levels, host names and the reasons
the untested hosts are untested are written down. `dotaios mcp install` compiles its
`Evidence:` line from the table this writes (crates/cli/src/commands/mcp_evidence.rs).

What it must never do: invent a level a run did not report, or write the document from a run
that was not all four hosts.

  compat_doc.py --line JSON                      one human line for one host result
  compat_doc.py --check RESULTS --control FILE   exit 0 only if every host produced and the
                                                 control did not
  compat_doc.py --write DOC RESULTS              regenerate the document
"""

from __future__ import annotations

import argparse
import json
import sys

LEVELS = ["none", "configured", "discoverable", "invoked", "produced"]
# Agents in the order of `mcp install --agent` (contract 06 §5.2).
TESTED = ["claude", "codex", "gemini", "opencode"]
UNTESTED = {
    "cursor": (
        "Cursor",
        "a desktop editor; its `cursor-agent` CLI installs from cursor.com's own script, not "
        "from a package registry this CI reaches (npm's `cursor-agent` is an unrelated package)",
    ),
    "antigravity": (
        "Antigravity",
        "Google's desktop IDE, downloaded from antigravity.google; no registry package exists "
        "(npm's `antigravity` is a placeholder, PyPI's a joke module)",
    ),
    "kimi": (
        "Kimi Code",
        "Kimi Code CLI installs from its GitHub releases; the `kimi-code` and `kimi-cli` names "
        "on PyPI are the archived legacy CLI and the one on npm an unrelated proxy wrapper",
    ),
}
ORDER = ["claude", "codex", "cursor", "gemini", "antigravity", "kimi", "opencode"]
# Written by hand (contract 05 §3.4), not from host runs: the client libraries of the test suite
# in each protocol era. Kept here so that regenerating the document keeps it.
ERAS_SECTION = """
## Protocol eras: what each client library sees

The adapter serves three eras (contract 05 §3.4). The **reference** era (no `initialize`, or one
at 2025-06-18 or older) is byte-identical to the reference adapter: input errors are JSON-RPC
`-32602` errors and results carry one text block. The **structured** era (an `initialize` that
negotiated 2025-11-25) and the **modern** one (2026-07-28 `_meta` on the request) answer input
errors as `isError` tool results with the same message, publish an `outputSchema` per tool and
return `structuredContent` equal to the text block, name the server in every result's `_meta`,
and list the teaching tool definitions; the modern era adds `resultType` and cache hints. These
rows come from the client tests of `scripts/test.sh` (`tests/python`, `tests/node`,
`crates/mcp/tests/rmcp_client.rs`), which assert each cell:

| Client (pinned) | Mode | Negotiated | Era | Input error | `structuredContent` | serverInfo |
|---|---|---|---|---|---|---|
| Python `mcp` 2.3.0 | `legacy` | 2025-11-25 | structured | `isError` result | validated by the client | `initialize`, result `_meta` |
| Python `mcp` 2.3.0 | `auto` | 2026-07-28 | modern | `isError` result | validated by the client | `server/discover`, result `_meta` |
| Python `mcp` 2.3.0 | `2026-07-28` | 2026-07-28 | modern | `isError` result | validated by the client | result `_meta` only (the library's `server_info` stays `None`) |
| TypeScript SDK v1 1.32.2 | (handshake only) | 2025-11-25 | structured | `isError` result | validated by the client | `initialize`, result `_meta` |
| TypeScript SDK v2 2.4.0 | `legacy` | 2025-11-25 | structured | `isError` result | validated by the client | `initialize`, result `_meta` |
| TypeScript SDK v2 2.4.0 | `auto`, `pin` | 2026-07-28 | modern | `isError` result | validated by the client | `server/discover`, result `_meta` |
| MCP Inspector CLI 2.12.0 | `--protocol-era legacy` | 2025-11-25 | structured | `isError` result (exit 5) | shown | `initialize` |
| MCP Inspector CLI 2.12.0 | `auto`, `modern` | 2026-07-28 | modern | `isError` result (exit 5) | shown | `server/discover` |
| `rmcp` 3.11.0 | `Initialize` | 2025-11-25 | structured | `isError` result | equal to the text | `initialize` |
| `rmcp` 3.11.0 | `Discover`, `Auto` | 2026-07-28 | modern | `isError` result | equal to the text | `server/discover` |
| the reference's own test suite, raw JSON lines | no `initialize`, or 2025-06-18 | — | reference | `-32602` error | none | `initialize` only |

In every era an unknown tool and non-object `arguments` stay `-32602` errors and the two internal
failures stay `-32603`. The Inspector's `tools/list --strict` reports no schema portability finding
in any era. The hosts of the table above were not re-run for this section; a host's era follows
from the version its `initialize` asks for (2025-06-18 or older: reference; anything else:
structured).
"""

DOC_HEAD = """# Compatibility: release evidence from real clients

<!-- Generated by `bash scripts/test-hosts.sh --write-docs`; do not edit the table by hand.
     `dotaios mcp install --dry-run --agent X` compiles its `Evidence:` line from it. -->

The adapter page of DotAIOS allows a client to be called tested only with release evidence: a
configuration file a client accepts proves configuration, not that the client ever called the
server. `scripts/test-hosts.sh` collects that evidence on every CI run, offline: the pinned
clients of `tests/hosts/package-lock.json` are wired with exactly the fragment `dotaios mcp
install --dry-run --agent X` prints and pointed at a scripted model endpoint on 127.0.0.1
(`tests/hosts/endpoint.py`). The endpoint asks for the client's own name of the `search_aios`
tool with the query `nodal corrections`, and checks that the tool result the client sends back
holds `37 constituents`, text that exists only in `examples/aios` and not in the prompt.

Levels, each including the ones before it:

- **configured**: the client accepts the fragment (its own `mcp list`, or `codex mcp get
  dotaios`, names the server and exits 0);
- **discoverable**: the client offered the model all three `dotaios` tools under its own names;
- **invoked**: the client called the tool and sent its result back to the model;
- **produced**: that result carried the folder's real content (the marker).

A negative control runs one client against a copy of the folder without the marker; it must not
reach **produced**, or the check proves nothing.

| Host | `--agent` | Version | Level | Date | Note |
|---|---|---|---|---|---|
"""
DOC_TAIL = """
Timings, isolation and the request logs of the last run are in `target/hosts/` after
`bash scripts/test-hosts.sh`. How each client is wired (environment, extra settings, prompt
command) is in `tests/hosts/README.md`.
""" + ERAS_SECTION


def human(result: dict) -> str:
    name = result.get("name") or result.get("host")
    version = result.get("version") or "?"
    line = f"  {result.get('host', '?'):<9} {result.get('level', 'none'):<13} {name} {version}"
    if "seconds" in result:
        line += f" ({result['seconds']} s)"
    if result.get("level") != "produced":
        line += f"\n      {result.get('detail', '')}"
        if result.get("tail"):
            line += f"\n      output: {result['tail']}"
    if result.get("leftover_processes"):
        line += f"\n      {result['leftover_processes']} leftover process(es) killed"
    return line


def load(path: str) -> dict[str, dict]:
    found = {}
    with open(path, encoding="utf-8") as source:
        for raw in source:
            if raw.strip():
                record = json.loads(raw)
                found[record["host"]] = record
    return found


def check(results_path: str, control_path: str) -> int:
    results = load(results_path)
    failures = [h for h in TESTED if results.get(h, {}).get("level") != "produced"]
    leftovers = [h for h, r in results.items() if r.get("leftover_processes")]
    control = list(load(control_path).values())
    control_level = control[0].get("level") if control else "none"
    ok = not failures and not leftovers and bool(control) and control_level != "produced"
    if failures:
        print(f"test-hosts: not produced: {', '.join(failures)}")
    if leftovers:
        print(f"test-hosts: left processes behind: {', '.join(leftovers)}")
    if control_level == "produced":
        print("test-hosts: the negative control reached produced: the check proves nothing")
    else:
        print(f"test-hosts: negative control stopped at {control_level} (not produced), as it must")
    print(f"test-hosts: {'all four hosts produced' if ok else 'FAILED'}")
    return 0 if ok else 1


def write(doc_path: str, results_path: str) -> int:
    results = load(results_path)
    missing = [h for h in TESTED if h not in results]
    if missing:
        print(f"test-hosts: no result for {', '.join(missing)}; document not written", file=sys.stderr)
        return 1
    rows = []
    for agent in ORDER:
        if agent in UNTESTED:
            name, why = UNTESTED[agent]
            rows.append(f"| {name} | `{agent}` | — | configured only | — | not tested: {why} |")
            continue
        result = results[agent]
        level = result["level"] if result["level"] in LEVELS[1:] else "none"
        note = "" if level == "produced" else result.get("detail", "").replace("|", "/")
        rows.append(
            f"| {result['name']} | `{agent}` | {result.get('version') or '?'} | {level} | "
            f"{result.get('date', '—')} | {note} |"
        )
    with open(doc_path, "w", encoding="utf-8") as doc:
        doc.write(DOC_HEAD + "\n".join(rows) + "\n" + DOC_TAIL)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--line")
    parser.add_argument("--check")
    parser.add_argument("--control")
    parser.add_argument("--write", nargs=2, metavar=("DOC", "RESULTS"))
    args = parser.parse_args()
    if args.line is not None:
        print(human(json.loads(args.line)))
        return 0
    if args.check:
        return check(args.check, args.control)
    if args.write:
        return write(*args.write)
    parser.error("one of --line, --check, --write")
    return 1


if __name__ == "__main__":
    sys.exit(main())
