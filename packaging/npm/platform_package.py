"""Prints the package.json of one npm platform package (scripts/release.sh).

Usage: platform_package.py NAME VERSION OS CPU RUST_TARGET. npm installs the package only where
`os` and `cpu` match the machine; the `dotaios-rs` launcher lists every platform package as an
optional dependency at exactly its own version. The binaries are `bin/dotaios` and
`bin/dotaios-mcp`, with `.exe` for a Windows RUST_TARGET.
"""

import json
import sys

name, version, os_name, cpu, target = sys.argv[1:6]
exe = ".exe" if "-windows-" in target else ""
print(
    json.dumps(
        {
            "name": name,
            "version": version,
            "description": f"dotaios and dotaios-mcp binaries for {os_name}-{cpu} ({target}); "
            "install dotaios-rs instead.",
            "license": "MIT OR Apache-2.0",
            "repository": {"type": "git", "url": "git+https://github.com/dotaios/dotaios-rs.git"},
            "homepage": "https://github.com/dotaios/dotaios-rs#readme",
            "os": [os_name],
            "cpu": [cpu],
            "files": [f"bin/dotaios{exe}", f"bin/dotaios-mcp{exe}", "LICENSE-MIT", "LICENSE-APACHE"],
            "preferUnplugged": True,
        },
        indent=2,
    )
)
