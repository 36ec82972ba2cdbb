"""Packs one directory into a zip archive that depends only on its files (scripts/release.sh).

    zip_dir.py ZIP PARENT NAME

Writes ZIP holding the directory PARENT/NAME as `NAME/...`: entries sorted by path, directories
before their contents, every timestamp 1980-01-01 00:00:00 (the oldest a zip can hold), Unix
modes fixed (0755 for directories and `.exe` files, 0644 for the rest), deflate at level 9, no
extra fields and no comment. The same files give the same bytes. Standard library only; never
reads outside PARENT/NAME and writes nothing but ZIP.
"""

import os
import stat
import sys
import zipfile

EPOCH = (1980, 1, 1, 0, 0, 0)
MADE_ON_UNIX = 3


def entry(name, mode):
    info = zipfile.ZipInfo(name, date_time=EPOCH)
    info.create_system = MADE_ON_UNIX
    info.external_attr = mode << 16
    if name.endswith("/"):
        info.external_attr |= 0x10  # MS-DOS directory attribute
        info.compress_type = zipfile.ZIP_STORED
    else:
        info.compress_type = zipfile.ZIP_DEFLATED
    return info


def members(parent, name):
    """(archive name, source path or None for a directory), sorted, directories first."""
    out = [(name + "/", None)]
    for root, dirs, files in os.walk(os.path.join(parent, name)):
        dirs.sort()
        rel = os.path.relpath(root, parent).replace(os.sep, "/")
        if rel != name:
            out.append((rel + "/", None))
        for file in sorted(files):
            out.append((f"{rel}/{file}", os.path.join(root, file)))
    return sorted(out)


def main(argv):
    zip_path, parent, name = argv
    tmp = zip_path + ".tmp"
    with zipfile.ZipFile(tmp, "w", compresslevel=9) as archive:
        for arcname, source in members(parent, name):
            if source is None:
                archive.writestr(entry(arcname, stat.S_IFDIR | 0o755), b"")
                continue
            mode = 0o755 if arcname.endswith(".exe") else 0o644
            with open(source, "rb") as file:
                archive.writestr(entry(arcname, stat.S_IFREG | mode), file.read())
    os.replace(tmp, zip_path)


if __name__ == "__main__":
    main(sys.argv[1:])
