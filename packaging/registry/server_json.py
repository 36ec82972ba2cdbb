"""Writes the release's server.json for the MCP registry (scripts/release.sh).

    server_json.py SOURCE VERSION DIST

SOURCE is packaging/registry/server.json (the npm and PyPI packages, their versions equal to
VERSION). Each .mcpb bundle in DIST/mcpb/ is added as a package of registry type `mcpb`: its
identifier the download address of the release asset under the repository named in SOURCE
(`<repository>/releases/download/v<VERSION>/<file>`), its `fileSha256` that of the file, so the
entry names exactly the bundles of this build. Prints nothing; writes DIST/server.json.
"""

import hashlib
import json
import os
import sys

source, version, dist = sys.argv[1:4]
document = json.load(open(source))
versions = {document["version"]} | {p["version"] for p in document["packages"]}
if versions != {version}:
    sys.exit(f"server_json: {source} names versions {sorted(versions)}, not {version}")
bundles = sorted(f for f in os.listdir(os.path.join(dist, "mcpb")) if f.endswith(".mcpb"))
for name in bundles:
    data = open(os.path.join(dist, "mcpb", name), "rb").read()
    document["packages"].append(
        {
            "registryType": "mcpb",
            "identifier": f"{document['repository']['url']}/releases/download/v{version}/{name}",
            "version": version,
            "fileSha256": hashlib.sha256(data).hexdigest(),
            "transport": {"type": "stdio"},
            # The bundle's manifest asks for the folder itself (user_config.aios_folder).
        }
    )
with open(os.path.join(dist, "server.json"), "w") as out:
    json.dump(document, out, indent=2)
    out.write("\n")
