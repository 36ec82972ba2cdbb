"""Turns host-run results (JSON lines from run_host.py) into lines, a verdict, or docs/compatibility.md.

It owns the wording of the evidence table: the one place the levels, host names and the reasons
the untested hosts are untested are written down. `dotaios mcp install` compiles its
`Evidence:` line from the table this writes (crates/cli/src/commands/mcp/evidence.rs).

What it must never do: invent a level a run did not report, or write a row for a tested host
from anything but a run of it (a run of some hosts keeps the other hosts' rows as they were).

  compat_doc.py --line JSON                      one human line for one host result
  compat_doc.py --check RESULTS --control FILE [--hosts H...]
                                                 exit 0 only if every host run (default: all
                                                 tested hosts) produced and no control did
  compat_doc.py --write DOC RESULTS              regenerate the document
"""

from __future__ import annotations

import argparse
import json
import sys

LEVELS = ["none", "configured", "discoverable", "invoked", "produced"]
# Agents in the order of `mcp install --agent` (contract 06 §5.2).
TESTED = ["claude", "codex", "gemini", "kimi", "opencode"]
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
and list the teaching tool definitions; both serve the skills as MCP resources and name each
`resolve_skill` match's `uri` (contract 05 §7.7); the modern era adds `resultType` and cache hints. These
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

# Written by hand, like ERAS_SECTION: the skill scenario of scripts/test-hosts.sh and its result.
SKILL_SECTION = """
## Following a skill over MCP alone

`resolve_skill` names a skill's file relative to a folder the adapter never names; in the
structured eras each skill is also an MCP resource, and each match carries its `uri` (contract
05 §7.7). With Claude Code among the hosts, `scripts/test-hosts.sh` checks that a real host's
model follows a skill it resolved with nothing but MCP: Claude Code, its working directory
outside the AIOS folder, calls `resolve_skill` for `calibrate the tide gauge`, reads the match's
`uri` with its own `ReadMcpResourceTool`, and answers with `HERON-SEXTANT-5813`, a token only the
body of that skill's `SKILL.md` holds (the skill of `tests/hosts/fixture`, added to a copy of
`examples/aios`). `resolve_skill`'s answer also carries the start of that body as `instructions`
(for hosts whose model sees tools only), so only the token in the resource read counts.
**produced** here means the token reached the model in the resource and Claude Code printed the
answer that repeats it.
The negative control, the same skill without its token, must stop at **invoked**.

| Host | Version | Calls | Level | Control | Date |
|---|---|---|---|---|---|
| Claude Code | 2.1.197 | `mcp__dotaios__resolve_skill`, then `ReadMcpResourceTool` | produced | invoked | 2026-12-06 |

The other hosts do not run this scenario: whether their models can read MCP resources was not
checked; a host whose model sees tools only gets the start of the body inline (contract 05 §7.7),
which no host run checks yet.
"""

# Written by hand, like ERAS_SECTION: how the reference's own MCP test file is run against this
# adapter, and its last result.
REFERENCE_SUITE_SECTION = """
## The reference's own MCP test file

`tests/mcp/server.test.mjs` of the reference (repository `filocosta46/dotaios`, commit
`33e837979751a7540a60b8c1dbf208e6f9c089ed`, the 2.0.19 tree; 46 tests) is run against this
adapter by hand; its code is not copied into this repository. It starts the server as `node
<root>/packages/mcp/src/server.mjs --path <aios>`, runs `init` and `brief` as `node
<root>/packages/cli/src/index.mjs …`, imports `DEFAULT_EVIDENCE_READ_LIMITS` from
`<root>/packages/core/src/evidence-reader.mjs` and reads `version` from `<root>/package.json`,
where `<root>` is two directories above the file. So, in a directory outside this repository:

1. put the file at `<root>/tests/mcp/server.test.mjs`;
2. write four shims: `packages/mcp/src/server.mjs` runs `$DOTAIOS_MCP_BIN` with its own
   arguments and inherited stdio and exits with its status; `packages/cli/src/index.mjs` does the
   same with `$DOTAIOS_BIN`; `packages/core/src/evidence-reader.mjs` exports
   `DEFAULT_EVIDENCE_READ_LIMITS = { maxFileBytes: 4194304 }` (the per-file search ceiling of
   contract 03); `package.json` is `{"version": "<the output of dotaios-mcp --version>", "type":
   "module"}`;
3. `cargo build -p dotaios --bins`, then
   `DOTAIOS_BIN=<target>/debug/dotaios DOTAIOS_MCP_BIN=<target>/debug/dotaios-mcp node --test
   --test-reporter=spec <root>/tests/mcp/server.test.mjs` (Node 20 or newer).

Last run (2026-12-02, dotaios 0.1.0, Node 20.20): 44 of 46 pass. The two that fail:

- *MCP returns the same actionable migration state beside the unchanged bounded markdown*: the
  documented difference D3f (contract 05 §7.3): `action.command` is `dotaios migrate` /
  `dotaios doctor`, where the reference names `npx dotaios@<version> migrate`.
- *MCP and hook JSON agree on bounded selected README coverage while retrieval stays complete*:
  MCP and hook agree in every case, and three of its four cases match the reference; at budget
  256 with a one-line selected README the reference reports `budgetOmitted: true` and we report
  `false`. That tree's briefs give the selected README an exact-source reference (a `ds1.…`
  handle for its source-follow reader, which its own source-evidence tests show; it is not in
  this product, nor in the contract), which makes its project block too long for 256 units, so
  it is rejected there. Our block carries the README line whole (124 of 256 units), so `false` is
  what contract 02 §12 defines: nothing of the README was left out. A deliberate difference for
  as long as the product has no source-follow reader.
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
  dotaios`, names the server and exits 0; Kimi Code, which has no such command, recorded the
  `dotaios` server and its tools in the session of the run);
- **discoverable**: the client offered the model all three `dotaios` tools under its own names;
- **invoked**: the client called the tool and sent its result back to the model;
- **produced**: that result carried the folder's real content (the marker).

A negative control runs Claude Code and Kimi Code against a copy of the folder without the
marker; neither may reach **produced**, or the check proves nothing.

| Host | `--agent` | Version | Level | Date | Note |
|---|---|---|---|---|---|
"""
DOC_TAIL = """
Timings, isolation and the request logs of the last run are in `target/hosts/` after
`bash scripts/test-hosts.sh`. How each client is wired (environment, extra settings, prompt
command) is in `tests/hosts/README.md`.
""" + ERAS_SECTION + SKILL_SECTION + REFERENCE_SUITE_SECTION


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


def check(results_path: str, control_path: str, hosts: list[str] | None = None) -> int:
    hosts = hosts or TESTED
    results = load(results_path)
    failures = [h for h in hosts if results.get(h, {}).get("level") != "produced"]
    leftovers = [h for h, r in results.items() if r.get("leftover_processes")]
    controls = load(control_path)
    produced = [h for h, r in controls.items() if r.get("level") == "produced"]
    ok = not failures and not leftovers and bool(controls) and not produced
    if failures:
        print(f"test-hosts: not produced: {', '.join(failures)}")
    if leftovers:
        print(f"test-hosts: left processes behind: {', '.join(leftovers)}")
    if not controls:
        print("test-hosts: no negative control ran")
    for host, record in controls.items():
        level = record.get("level", "none")
        if level == "produced":
            print(f"test-hosts: the negative control ({host}) reached produced: the check proves nothing")
        else:
            print(f"test-hosts: negative control ({host}) stopped at {level} (not produced), as it must")
    verdict = f"all {len(hosts)} hosts produced" if len(hosts) > 1 else f"{hosts[0]} produced"
    print(f"test-hosts: {verdict if ok else 'FAILED'}")
    return 0 if ok else 1


def existing_rows(doc_path: str) -> dict[str, str]:
    """The table rows of the current document by agent (`| Host | `agent` | …`)."""
    rows = {}
    try:
        with open(doc_path, encoding="utf-8") as doc:
            lines = doc.read().splitlines()
    except FileNotFoundError:
        return rows
    for line in lines:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) >= 6 and cells[1].startswith("`"):
            rows[cells[1].strip("`")] = line
    return rows


def write(doc_path: str, results_path: str) -> int:
    results = load(results_path)
    kept = existing_rows(doc_path)
    # A tested host's row comes from this run, or stays as the last run that had it wrote it.
    untested_before = {a for a, row in kept.items() if "| — | configured only |" in row}
    missing = [h for h in TESTED if h not in results and (h not in kept or h in untested_before)]
    if missing:
        print(f"test-hosts: no result for {', '.join(missing)}; document not written", file=sys.stderr)
        return 1
    rows = []
    for agent in ORDER:
        if agent in UNTESTED:
            name, why = UNTESTED[agent]
            rows.append(f"| {name} | `{agent}` | — | configured only | — | not tested: {why} |")
            continue
        if agent not in results:
            rows.append(kept[agent])
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
    parser.add_argument("--hosts", nargs="*", choices=TESTED)
    parser.add_argument("--write", nargs=2, metavar=("DOC", "RESULTS"))
    args = parser.parse_args()
    if args.line is not None:
        print(human(json.loads(args.line)))
        return 0
    if args.check:
        return check(args.check, args.control, args.hosts)
    if args.write:
        return write(*args.write)
    parser.error("one of --line, --check, --write")
    return 1


if __name__ == "__main__":
    sys.exit(main())
