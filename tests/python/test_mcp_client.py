"""The adapter driven by Python's official `mcp` client (contract 05 §13), in the legacy
handshake (which negotiates 2025-11-25), auto (probe `server/discover`, fall back to
`initialize`) and pinned 2026-07-28 modes. Every mode lands in a structured era (contract 05
§3.4): three tools in order with their annotations and output schemas, an Off call, a search
and a skill whose structured content (validated by the client against the output schema)
equals the text, an input error as an `isError` result with its exact message, an unknown tool
failing with -32602, the serverInfo `_meta` on results, the negotiated version, and exit status
0 after the client closes.

Needs the built binaries: `cargo build --workspace --bins`. They are found in cargo's target
directory (`cargo metadata`, so CARGO_TARGET_DIR is honoured), or set DOTAIOS_MCP_BIN and
DOTAIOS_BIN (scripts/test.sh does)."""

import json
import os
import pathlib
import subprocess

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters

SERVER_INFO = "io.modelcontextprotocol/serverInfo"

ROOT = pathlib.Path(__file__).resolve().parents[2]


def target_directory():
    """Cargo's target directory for this workspace, as `cargo metadata` reports it."""
    try:
        metadata = subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--no-deps"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        )
        return pathlib.Path(json.loads(metadata.stdout)["target_directory"])
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError):
        return ROOT / "target"


def binary(variable, name):
    if os.environ.get(variable):
        return pathlib.Path(os.environ[variable])
    return target_directory() / "debug" / name


ADAPTER = binary("DOTAIOS_MCP_BIN", "dotaios-mcp")
CLI = binary("DOTAIOS_BIN", "dotaios")

ANNOTATIONS = {
    "readOnlyHint": True,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}


@pytest.fixture
def aios(tmp_path):
    for path in (ADAPTER, CLI):
        assert path.exists(), f"{path} not found: run `cargo build --workspace --bins`, or set DOTAIOS_MCP_BIN and DOTAIOS_BIN"
    folder = tmp_path / "aios"
    subprocess.run([str(CLI), "init", "--yes", "--path", str(folder)], check=True, capture_output=True)
    return folder


def server(aios, status_file):
    """Launches the adapter through `sh` so that its exit status can be read afterwards."""
    script = '"$0" --path "$1"; echo $? > "$2"'
    return StdioServerParameters(command="sh", args=["-c", script, str(ADAPTER), str(aios), str(status_file)])


def payload(result):
    assert result.is_error is False
    assert len(result.content) == 1
    value = json.loads(result.content[0].text)
    assert result.structured_content == value
    assert result.meta[SERVER_INFO]["name"] == "dotaios-mcp"
    return value


async def exercise(aios, status_file, mode, expected_version):
    async with Client(server(aios, status_file), mode=mode) as client:
        assert client.protocol_version == expected_version
        if mode != "2026-07-28":
            # A pinned modern client sends no lifecycle request: the client library reads no
            # server info, but every result names the server in its `_meta` (below).
            assert client.server_info.name == "dotaios-mcp"

        listed = await client.list_tools()
        assert listed.meta[SERVER_INFO]["name"] == "dotaios-mcp"
        tools = listed.tools
        assert [tool.name for tool in tools] == ["read_working_context", "search_aios", "resolve_skill"]
        for tool in tools:
            assert tool.annotations.model_dump(by_alias=True, exclude_none=True) == ANNOTATIONS
            assert tool.output_schema["type"] == "object"
            assert all("description" in schema for schema in tool.input_schema["properties"].values())

        off = payload(await client.call_tool("read_working_context", {"memory": "off"}))
        assert off["receipt"] == "Memory: Off"
        assert "AI app may still keep its own conversation history" in off["notice"]

        found = payload(await client.call_tool("search_aios", {"query": "plan my day"}))
        assert found["receipt"] == "Memory: Shared"
        assert found["budget"]["limit"] == 6000

        skill = payload(await client.call_tool("resolve_skill", {"intent": "plan my day"}))
        assert skill["matches"][0]["name"] == "plan-today"

        with pytest.raises(MCPError) as error:
            await client.call_tool("log_event", {})
        assert error.value.code == -32602
        assert "Unknown tool: log_event" in str(error.value)

        # Input errors are tool results the model can read (contract 05 §6.11).
        for arguments, message in [
            ({"query": "x", "bogus": 1}, "Unknown tool argument"),
            ({"query": "x", "budget": 20}, "budget must be an integer from 3530 to 32000"),
        ]:
            refused = await client.call_tool("search_aios", arguments)
            assert refused.is_error is True
            assert [block.text for block in refused.content] == [message]
            assert refused.structured_content is None

    # The adapter exits by itself at EOF; give the wrapper a moment to record it.
    for _ in range(100):
        if status_file.exists() and status_file.read_text().strip():
            break
        await anyio.sleep(0.05)
    assert status_file.read_text().strip() == "0"


@pytest.mark.parametrize(
    ("mode", "expected_version"),
    [("legacy", "2025-11-25"), ("auto", "2026-07-28"), ("2026-07-28", "2026-07-28")],
)
def test_python_client(aios, tmp_path, mode, expected_version):
    anyio.run(exercise, aios, tmp_path / "status", mode, expected_version)
