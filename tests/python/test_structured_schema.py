"""Structured content against the published output schemas (contract 05 §5.2, §7.1, §6.11),
checked by an independent JSON Schema 2020-12 validator (`jsonschema`, pinned in
requirements.txt), not by the adapter's own code.

The adapter is driven over raw JSON lines in both structured eras (a 2025-11-25 `initialize`,
and 2026-07-28 `_meta` on every request) against four folders: a rich one with material in
every scope (memory records that override result members with other types, array-index keys,
path-named keys, sessions with untyped titles, a skill with many triggers), one with an
oversized file in every scope and an outdated schema (omissions, migration notices), one whose
`aios.json` cannot be inspected, and a missing one. The calls are the acceptance checklist's
argument shapes plus a few thousand generated from a fixed seed, valid and invalid. For every
answer: a success has `structuredContent` equal to its text block, valid against the tool's
`outputSchema`, with `budget.used` still measuring the text; an input error is an `isError`
result whose only text is its message; every other answer is a JSON-RPC error, and only
unknown tools, non-object arguments and internal failures produce one.
"""

import datetime
import json
import pathlib
import random
import subprocess

import jsonschema
import pytest

from test_mcp_client import ADAPTER, CLI

SEED = 23
GENERATED_CALLS = 3000
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
OFF_NOTICE = (
    "DotAIOS is off; your AI app may still keep its own conversation history. "
    "DotAIOS did not read, search, save, or capture this turn."
)
TOOLS = ["read_working_context", "search_aios", "resolve_skill"]



NO_FOLDER_LINE = (
    b"dotaios-mcp: No AIOS folder found at the configured path. Create it with `dotaios init` "
    b"(give it the adapter's --path, if any), or point --path at an existing AIOS folder.\n"
)

def write(folder, relative, text):
    path = folder / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def init(folder):
    subprocess.run([str(CLI), "init", "--yes", "--path", str(folder)], check=True, capture_output=True)


def jsonl(*records):
    return "".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in records)


def rich_folder(folder):
    init(folder)
    today = datetime.date.today().isoformat()
    write(folder, "context/notes.md", "# Launch notes\n\nThe launch checklist lives here.\n\n## Gateway\n\nGateway acceptance " + "😀" * 40 + "\n")
    write(folder, "context/escapes.md", "# Escapes\n\n" + '"\\ launch \u2028 tab\there\n' * 30)
    write(folder, "vault/note.md", "# Vault note\n\nlaunch checklist in the vault\n")
    write(folder, "vault/deep/other.md", "---\ndescription: launch plans\n---\n# Other\n\nmore launch words\n")
    write(folder, "projects/demo/README.md", "---\nid: demo-id\nproject: demo\n---\n# Demo\n\nGateway acceptance launch checklist.\n")
    write(folder, "projects/demo/notes.md", "# Demo notes\n\nlaunch day plan\n")
    write(folder, "projects/alpha/README.md", "---\nid: alpha-001\n---\n# Alpha\n\nalpha launch\n")
    write(folder, "decisions/2026-launch.md", "# Decision: launch\n\nWe launch on Monday.\n")
    write(folder, "references/guide.md", "# Guide\n\nA reference about launch checklist design.\n")
    write(folder, "plugins/sample/manifest.json", json.dumps({"name": "sample", "description": "launch plugin"}))
    write(folder, "plugins/sample/README.md", "# Sample plugin\n\nlaunch helper\n")
    triggers = "\n".join(f"  - launch trigger {n}" for n in range(7))
    write(folder, "skills/many-triggers/SKILL.md", f"---\nname: many-triggers\ndescription: {'Route launch work. ' * 30}\ntriggers:\n{triggers}\n---\n# Many\n")
    write(folder, "memory/events.jsonl", jsonl(
        {"ts": f"{today}T09:00:00.000Z", "type": "note", "summary": "launch checklist reviewed"},
        {"ts": f"{today}T09:05:00.000Z", "scope": 42, "source": ["x"], "match": "mine", "matchedField": 7,
         "10": "ten", "2": "two", "summary": "launch weird record", "path": "/private/x",
         "nested": {"PATH": "y", "deep": [1, 2, 3, 4, 5, 6, 7], "content": "c" * 900}},
        {"ts": f"{today}T09:06:00.000Z", "summary": "launch " + "x" * 900, "title": None, "tags": ["launch", 3, True, None]},
        "{not json",
        {"ts": f"{today}T09:07:00.000Z", "type": "decision", "summary": "launch 😀 " * 50},
    ))
    write(folder, f"memory/signals/{today}.jsonl", jsonl({"ts": f"{today}T08:00:00.000Z", "summary": "launch signal"}))
    write(folder, "memory/daily/2026-12-01.md", "# Daily\n\nlaunch standup\n")
    sessions = [
        {"session_id": "s1", "agent": "claude", "title": "Launch session", "project": "demo",
         "path": "memory/sessions/2026-12-01/a.md", "captured_at": f"{today}T10:00:00.000Z",
         "source_path": "/private/machine/session.jsonl"},
        {"session_id": 7, "agent": None, "title": 42, "path": "memory/sessions/2026-12-01/b.md"},
        {"title": {"nested": "launch", "path": "/x"}, "agent": ["a", "b"], "project": {"id": 1},
         "path": "memory/sessions/2026-12-01/c.md", "captured_at": 5},
        {"title": "", "path": "memory/sessions/2026-12-01/d.md"},
    ]
    write(folder, "memory/sessions/index.jsonl", jsonl(*sessions))
    for name in "abcd":
        write(folder, f"memory/sessions/2026-12-01/{name}.md", "---\ntitle: body\n---\nWe talked about the launch checklist and more.\n")
    return folder


def oversized_folder(folder):
    init(folder)
    big = b"x" * (4 * 1024 * 1024 + 1)
    for relative in ["memory/events.jsonl", "memory/sessions/index.jsonl", "context/big.md", "vault/big.md",
                     "decisions/big.md", "skills/oversized/SKILL.md", "references/big.md",
                     "plugins/oversized/manifest.json", "projects/demo/big.md"]:
        write(folder, relative, big)
    write(folder, "projects/demo/README.md", "---\nid: demo-id\n---\n# Demo\n")
    config = json.loads((folder / "aios.json").read_text())
    config["schema_version"] = "1.1.0"
    write(folder, "aios.json", json.dumps(config, indent=2))
    return folder


def uninspectable_folder(folder):
    init(folder)
    write(folder, "aios.json", json.dumps({"schema_version": "invalid"}))
    return folder


def acceptance_calls():
    """The argument shapes of the acceptance checklist (contract 05 §14), every tool."""
    calls = []
    for memory in (None, "shared", "off"):
        base = {} if memory is None else {"memory": memory}
        calls += [
            ("read_working_context", {**base}),
            ("read_working_context", {**base, "budget": 256}),
            ("read_working_context", {**base, "budget": 32000, "limit": 10}),
            ("search_aios", {**base, "query": "launch"}),
            ("search_aios", {**base, "query": "launch checklist", "budget": 3530}),
            ("search_aios", {**base, "query": "missing", "scope": "all", "budget": 3530}),
            ("search_aios", {**base, "query": "😀" * 434, "scope": "context", "budget": 3530}),
            ("search_aios", {**base, "query": "bounded " + "context " * 55}),
            ("resolve_skill", {**base, "intent": "plan my day"}),
            ("resolve_skill", {**base, "intent": "launch trigger 3", "limit": 10, "budget": 32000}),
            ("resolve_skill", {**base, "intent": "plan my day " + "context " * 60, "limit": 10, "budget": 256}),
            ("resolve_skill", {**base, "intent": "x" * 500, "budget": 512}),
            ("resolve_skill", {**base, "intent": "x" * 500, "budget": 256}),
        ]
        for scope in ["memory", "vault", "context", "decisions", "skills", "references", "plugins", "sessions", "all"]:
            calls.append(("search_aios", {**base, "query": "launch", "scope": scope, "limit": 20, "budget": 32000}))
    for project in ("demo", "demo-id", "alpha-001", " demo ", "missing-project", "x" * 201, 42, None, ""):
        calls += [
            ("read_working_context", {"project": project, "budget": 512}),
            ("search_aios", {"query": "launch", "project": project}),
            ("search_aios", {"query": "launch", "scope": "projects", "project": project, "budget": 3530}),
            ("search_aios", {"query": "launch", "scope": "vault", "project": project}),
            ("resolve_skill", {"memory": "project", "project": project, "intent": "plan this work"}),
        ]
    calls += [
        ("read_working_context", {"budget": 20}),
        ("read_working_context", {"limit": "3", "budget": 256}),
        ("read_working_context", {"projet": "demo"}),
        ("read_working_context", {"memory": "automatic"}),
        ("read_working_context", {"memory": "shared", "project": "demo"}),
        ("read_working_context", {"memory": "project"}),
        ("search_aios", {"query": "x", "limit": 100}),
        ("search_aios", {"query": "x", "scope": "everything"}),
        ("search_aios", {"query": "x", "scope": "projects"}),
        ("search_aios", {"query": "x", "budget": 3529}),
        ("search_aios", {"memory": "off"}),
        ("resolve_skill", {"memory": "off", "intent": []}),
        ("resolve_skill", {"intent": "x", "project": "a/b"}),
    ]
    return calls


WORDS = ["launch", "checklist", "plan", "my", "day", "gateway", "weird", "😀", "vault", "demo", "x", "café", "\"\\"]
PROJECTS = ["demo", "demo-id", "alpha-001", "missing", " demo ", "", "a/b", 42, None, "x" * 201]
SCOPES = ["memory", "vault", "context", "projects", "decisions", "skills", "references", "plugins", "sessions",
          "all", " memory ", "everything", 5]
MEMORY = ["shared", "project", "off", "automatic", None, 3]
LIMITS = [1, 2, 3, 10, 20, 0, 21, "3", 2.0, 3.5]
BUDGETS = [256, 300, 512, 1000, 3530, 6000, 32000, 20, 3529, 40000, 1e3, "6000"]


def generated_calls(rng):
    """Random argument objects: mostly plausible, some out of range, mistyped or unknown."""
    calls = []
    for _ in range(GENERATED_CALLS):
        tool = rng.choice(TOOLS)
        arguments = {}
        if rng.random() < 0.4:
            arguments["memory"] = rng.choice(MEMORY)
        if rng.random() < 0.3:
            arguments["project"] = rng.choice(PROJECTS)
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))
        if rng.random() < 0.05:
            text = rng.choice(["", "   ", 42, "w" * 501, "😀" * 250])
        if tool == "search_aios":
            if rng.random() < 0.97:
                arguments["query"] = text
            if rng.random() < 0.5:
                arguments["scope"] = rng.choice(SCOPES)
        elif tool == "resolve_skill" and rng.random() < 0.97:
            arguments["intent"] = text
        if rng.random() < 0.4:
            arguments["limit"] = rng.choice(LIMITS)
        if rng.random() < 0.5:
            arguments["budget"] = rng.choice(BUDGETS)
        if rng.random() < 0.03:
            arguments["bogus"] = True
        calls.append((tool, arguments))
    return calls


def len16(text):
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def run(folder, calls, era):
    """Every call through one adapter process; the answers by id, and the tool list."""
    lines = []
    params_meta = {"_meta": MODERN_META} if era == "modern" else {}
    if era == "2025-11-25":
        lines.append({"jsonrpc": "2.0", "id": "init", "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                                 "clientInfo": {"name": "schema-test", "version": "0"}}})
    lines.append({"jsonrpc": "2.0", "id": "list", "method": "tools/list", "params": dict(params_meta)})
    for index, (tool, arguments) in enumerate(calls):
        lines.append({"jsonrpc": "2.0", "id": index, "method": "tools/call",
                      "params": {**params_meta, "name": tool, "arguments": arguments}})
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    ran = subprocess.run([str(ADAPTER), "--path", str(folder)], input=text.encode(), capture_output=True, timeout=600)
    # A folder without aios.json gets the adapter's one start-up line (contract 05 §1.3);
    # otherwise stderr stays empty.
    expected_stderr = b"" if (pathlib.Path(folder) / "aios.json").exists() else NO_FOLDER_LINE
    assert ran.returncode == 0 and ran.stderr == expected_stderr
    answers = {}
    # Split at line feeds only: U+2028 is written raw inside strings (contract 05 §10.2), and
    # `str.splitlines` would break there.
    for line in ran.stdout.decode().split("\n"):
        if not line:
            continue
        answer = json.loads(line)
        answers[answer["id"]] = answer
    assert len(answers) == len(lines)
    tools = {tool["name"]: tool for tool in answers["list"]["result"]["tools"]}
    assert list(tools) == TOOLS
    return tools, [answers[index] for index in range(len(calls))]


def validators(tools):
    result = {}
    for name, tool in tools.items():
        schema = tool["outputSchema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"
        result[name] = jsonschema.Draft202012Validator(schema)
    return result


def check(tools, calls, answers, era, seen):
    checkers = validators(tools)
    for (tool, arguments), answer in zip(calls, answers):
        context = f"{tool} {json.dumps(arguments)[:200]}"
        if "error" in answer:
            # Protocol errors remain only for what is not an input error of a known tool.
            assert answer["error"]["code"] == -32603, context
            seen.add("internal")
            continue
        result = answer["result"]
        assert result["_meta"][SERVER_INFO]["name"] == "dotaios-mcp", context
        assert ("resultType" in result) == (era == "modern"), context
        assert len(result["content"]) == 1 and result["content"][0]["type"] == "text", context
        text = result["content"][0]["text"]
        if result["isError"]:
            assert "structuredContent" not in result, context
            assert text and not text.startswith("{"), context
            seen.add("isError")
            continue
        payload = json.loads(text)
        assert result["structuredContent"] == payload, context
        errors = sorted(checkers[tool].iter_errors(result["structuredContent"]), key=str)
        assert not errors, f"{context}: {errors[0]}"
        if tool != "read_working_context" and "budget" in payload:
            assert payload["budget"]["used"] == len16(text), context
        seen.add((tool, payload["memory"]))
        if tool == "search_aios":
            seen.update(("scope", item.get("scope") if isinstance(item.get("scope"), str) else "other")
                        for item in payload["results"])
            seen.update(("omission", o["reason"]) for o in payload["omissions"])
        if tool == "read_working_context" and "operational" in payload:
            seen.add(("migration", payload["operational"]["migration"]["status"]))


@pytest.mark.parametrize("era", ["2025-11-25", "modern"])
def test_structured_content_matches_the_output_schema(tmp_path, era):
    rng = random.Random(SEED)
    folders = {
        "rich": rich_folder(tmp_path / "rich"),
        "oversized": oversized_folder(tmp_path / "oversized"),
        "uninspectable": uninspectable_folder(tmp_path / "uninspectable"),
        "missing": tmp_path / "missing",
    }
    seen = set()
    for name, folder in folders.items():
        calls = acceptance_calls()
        if name == "rich":
            calls += generated_calls(rng)
        tools, answers = run(folder, calls, era)
        check(tools, calls, answers, era, seen)
    # The run reached every payload variant the schemas must cover.
    for tool in TOOLS:
        for memory in ("shared", "project", "off"):
            assert (tool, memory) in seen, (tool, memory)
    for scope in ["sessions", "context", "memory", "vault", "projects", "decisions", "skills", "references",
                  "plugins", "other"]:
        assert ("scope", scope) in seen, scope
    for reason in ["file_too_large", "scope_forbidden_by_memory_policy"]:
        assert ("omission", reason) in seen, reason
    for status in ["current", "schema_outdated", "inspection_failed"]:
        assert ("migration", status) in seen, status
    assert "isError" in seen


def test_input_errors_read_as_messages(tmp_path):
    """§6.11: the exact catalogue texts, as the only content of an `isError` result."""
    calls = [
        ("read_working_context", {"budget": 20}),
        ("search_aios", {"query": "x", "limit": 100}),
        ("search_aios", {"query": "x", "bogus": 1}),
        ("read_working_context", {}),
    ]
    tools, answers = run(tmp_path / "missing", calls, "2025-11-25")
    texts = [answer["result"]["content"][0]["text"] for answer in answers]
    assert all(answer["result"]["isError"] is True for answer in answers)
    assert texts == [
        "budget must be an integer from 256 to 32000",
        "limit must be an integer from 1 to 20",
        "Unknown tool argument",
        NO_FOLDER_LINE.decode().removeprefix("dotaios-mcp: ").rstrip("\n"),
    ]
