"""A real MCP stdio round trip against an installed adapter (scripts/release-check.sh).

    mcp_roundtrip.py [--tools-json] FOLDER COMMAND [ARG...]

Starts `COMMAND ARG... --path FOLDER`, then as a client would: `initialize`, the `initialized`
notification, `tools/list`, and `tools/call` of every listed tool that needs no arguments plus
`search_aios` with a query. Fails unless the server names itself `dotaios-mcp`, lists exactly the
three tools, and answers every call with a non-error text result. Prints the tool names on one
line (the caller compares them with the bundle manifest); with `--tools-json`, prints instead the
listed tools' names and descriptions as a JSON array, which scripts/release.sh writes into the
bundle manifests so that they say what the server says. Standard library only.
"""

import json
import subprocess
import sys

TOOLS = ["read_working_context", "search_aios", "resolve_skill"]
TIMEOUT = 60


def main(argv):
    tools_json = argv[:1] == ["--tools-json"]
    if tools_json:
        argv = argv[1:]
    folder, command = argv[0], argv[1:]
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "release-check", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "read_working_context", "arguments": {}},
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "search_aios", "arguments": {"query": "decision"}},
        },
    ]
    stdin = "".join(json.dumps(line) + "\n" for line in lines)
    done = subprocess.run(
        command + ["--path", folder],
        input=stdin.encode(),
        capture_output=True,
        timeout=TIMEOUT,
        check=False,
    )
    replies = {}
    for raw in done.stdout.decode().splitlines():
        reply = json.loads(raw)
        replies[reply.get("id")] = reply
    def result(ident):
        reply = replies.get(ident)
        if reply is None or "result" not in reply:
            raise SystemExit(
                f"mcp: no result for request {ident}: {reply!r}; stderr: {done.stderr.decode()!r}"
            )
        return reply["result"]
    info = result(1)["serverInfo"]
    if info.get("name") != "dotaios-mcp":
        raise SystemExit(f"mcp: serverInfo {info!r}")
    tools = result(2)["tools"]
    names = [tool["name"] for tool in tools]
    if sorted(names) != sorted(TOOLS):
        raise SystemExit(f"mcp: tools/list gave {names}")
    for ident in (3, 4):
        call = result(ident)
        text = call["content"][0]["text"]
        if call.get("isError") or not text:
            raise SystemExit(f"mcp: tools/call {ident} gave {call!r}")
    if tools_json:
        listed = [{"name": t["name"], "description": t["description"]} for t in tools]
        print(json.dumps(listed, indent=2))
    else:
        print(" ".join(sorted(names)))


if __name__ == "__main__":
    main(sys.argv[1:])
