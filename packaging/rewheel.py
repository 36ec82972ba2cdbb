"""Replaces the binaries in a maturin `bindings = "bin"` wheel (scripts/release.sh).

    rewheel.py WHEEL BIN_DIR

maturin packs the binaries it built; the x86_64 macOS ones get their ad-hoc signature only after
that (packaging/macho.py sign-missing), so this puts the signed `dotaios` and `dotaios-mcp` from
BIN_DIR into the wheel in place of its scripts and rewrites their RECORD lines (PEP 376 hash and
size). Every other member is copied unchanged, in order.
"""

import base64
import hashlib
import os
import sys
import zipfile

wheel_path, bin_dir = sys.argv[1], sys.argv[2]
replaced = {}
with zipfile.ZipFile(wheel_path) as old:
    members = [(info, old.read(info)) for info in old.infolist()]
record_name = next(info.filename for info, _ in members if info.filename.endswith(".dist-info/RECORD"))
out = []
for info, data in members:
    directory, name = os.path.split(info.filename)
    if directory.endswith(".data/scripts") and name in ("dotaios", "dotaios-mcp"):
        with open(os.path.join(bin_dir, name), "rb") as file:
            data = file.read()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        replaced[info.filename] = f"{info.filename},sha256={digest},{len(data)}"
    out.append((info, data))
if len(replaced) != 2:
    sys.exit(f"rewheel: {wheel_path} has scripts {sorted(replaced)}, want dotaios and dotaios-mcp")
tmp = wheel_path + ".tmp"
with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as new:
    for info, data in out:
        if info.filename == record_name:
            lines = data.decode().splitlines()
            lines = [replaced.get(line.split(",", 1)[0], line) for line in lines]
            data = ("\n".join(lines) + "\n").encode()
        new.writestr(info, data)
os.replace(tmp, wheel_path)
print(f"rewheel: {os.path.basename(wheel_path)}: {', '.join(sorted(replaced))} replaced")
