"""Mach-O checks for the macOS release binaries (scripts/release-check.sh), standard library only.

    macho.py check ARCH FILE...   ARCH is arm64 or x86_64

For each FILE: a 64-bit little-endian Mach-O (no fat/universal wrapper) of CPU type ARCH, file
type MH_EXECUTE, with an LC_CODE_SIGNATURE whose embedded signature is a SuperBlob holding a
CodeDirectory, and every code page hash in that CodeDirectory matching the file's bytes (what
the macOS kernel checks before it runs an ad-hoc signed arm64 executable). Prints one line per
file; exits 1 if any check fails. It never modifies a file.
"""

import hashlib
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
MH_EXECUTE = 2
LC_CODE_SIGNATURE = 0x1D
CPU_TYPES = {"arm64": 0x0100000C, "x86_64": 0x01000007}
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CS_HASHTYPE_SHA256 = 2


class Bad(Exception):
    pass


def code_signature(data):
    """The (offset, size) of the embedded signature, after checking the header."""
    if len(data) < 32:
        raise Bad("too short for a Mach-O header")
    magic, cputype, _sub, filetype, ncmds, sizeofcmds = struct.unpack_from("<IiiIII", data, 0)
    if magic != MH_MAGIC_64:
        raise Bad(f"magic {magic:#x} is not MH_MAGIC_64")
    offset, signature = 32, None
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmdsize < 8 or offset + cmdsize > 32 + sizeofcmds:
            raise Bad("malformed load command")
        if cmd == LC_CODE_SIGNATURE:
            signature = struct.unpack_from("<II", data, offset + 8)
        offset += cmdsize
    return cputype, filetype, signature


def verify_signature(data, dataoff, datasize):
    """Checks the CodeDirectory's code page hashes against the file; returns its page count."""
    if dataoff + datasize > len(data):
        raise Bad("code signature lies past the end of the file")
    blob = data[dataoff : dataoff + datasize]
    magic, _length, count = struct.unpack_from(">III", blob, 0)
    if magic != CSMAGIC_EMBEDDED_SIGNATURE:
        raise Bad(f"signature magic {magic:#x} is not an embedded signature")
    for index in range(count):
        _slot, cd_offset = struct.unpack_from(">II", blob, 12 + 8 * index)
        if struct.unpack_from(">I", blob, cd_offset)[0] != CSMAGIC_CODEDIRECTORY:
            continue
        (_m, _len, _version, _flags, hash_offset, _ident, _special, n_code, code_limit) = (
            struct.unpack_from(">IIIIIIIII", blob, cd_offset)
        )
        hash_size, hash_type, _platform, page_log2 = struct.unpack_from(">BBBB", blob, cd_offset + 36)
        if hash_type != CS_HASHTYPE_SHA256 or hash_size != 32:
            raise Bad(f"hash type {hash_type} size {hash_size} is not SHA-256")
        if code_limit != dataoff:
            raise Bad(f"code limit {code_limit} is not the signature offset {dataoff}")
        page = 1 << page_log2
        if n_code != (code_limit + page - 1) // page:
            raise Bad(f"{n_code} code slots do not cover {code_limit} bytes")
        for slot in range(n_code):
            start = cd_offset + hash_offset + 32 * slot
            want = blob[start : start + 32]
            got = hashlib.sha256(data[slot * page : min((slot + 1) * page, code_limit)]).digest()
            if want != got:
                raise Bad(f"code page {slot} does not match its hash")
        return n_code
    raise Bad("no CodeDirectory in the signature")


def check(arch, path):
    with open(path, "rb") as file:
        data = file.read()
    cputype, filetype, signature = code_signature(data)
    if cputype != CPU_TYPES[arch]:
        raise Bad(f"CPU type {cputype:#x} is not {arch}")
    if filetype != MH_EXECUTE:
        raise Bad(f"file type {filetype} is not MH_EXECUTE")
    if signature is None:
        raise Bad("no LC_CODE_SIGNATURE (unsigned)")
    pages = verify_signature(data, *signature)
    return f"{arch} MH_EXECUTE, ad-hoc signature with {pages} verified code pages"


def main(argv):
    if len(argv) < 3 or argv[0] != "check" or argv[1] not in CPU_TYPES:
        sys.stderr.write(__doc__)
        return 2
    failed = False
    for path in argv[2:]:
        try:
            print(f"macho: ok   {path}: {check(argv[1], path)}")
        except (Bad, struct.error, OSError) as error:
            failed = True
            print(f"macho: FAIL {path}: {error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
