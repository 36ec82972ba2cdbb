"""Prints the manifest.json of one .mcpb bundle (scripts/release.sh).

    manifest.py BASE_MANIFEST VERSION OS TOOLS_JSON

BASE_MANIFEST is packaging/mcpb/manifest.json; the bundle gets VERSION, OS as its only
platform, and the tools the adapter itself lists (TOOLS_JSON, written by
`mcp_roundtrip.py --tools-json`), so the bundle's descriptions are the server's own. On
`win32` the server is `server/dotaios-mcp.exe`.
"""

import json
import sys

base, version, os_name, tools = sys.argv[1:5]
manifest = json.load(open(base))
manifest["version"] = version
manifest["compatibility"]["platforms"] = [os_name]
manifest["tools"] = json.load(open(tools))
if os_name == "win32":
    server = manifest["server"]
    server["entry_point"] += ".exe"
    server["mcp_config"]["command"] += ".exe"
print(json.dumps(manifest, indent=2))
