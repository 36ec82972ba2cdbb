"""Mach-O checks for the macOS release binaries (scripts/release-check.sh), standard library only.

    macho.py check ARCH FILE...   ARCH is arm64 or x86_64
    macho.py sign-missing FILE... ad-hoc sign each FILE that has no code signature

For each FILE: a 64-bit little-endian Mach-O (no fat/universal wrapper) of CPU type ARCH, file
type MH_EXECUTE, with an LC_CODE_SIGNATURE whose embedded signature is a SuperBlob holding a
CodeDirectory, and every code page hash in that CodeDirectory matching the file's bytes (what
the macOS kernel checks before it runs an ad-hoc signed arm64 executable). Prints one line per
file; exits 1 if any check fails. `check` never modifies a file.

`sign-missing` exists because zig's linker signs aarch64-apple-darwin executables (the kernel
refuses unsigned arm64 code) but not x86_64 ones. It writes what Apple's linker writes for
`-adhoc_codesign`: an LC_CODE_SIGNATURE load command in the header padding, and at the end of
__LINKEDIT a SuperBlob holding one linker-signed, ad-hoc CodeDirectory (version 0x20400,
SHA-256, 4 KiB pages, the __TEXT segment as the executable segment). A file that is already
signed is left unchanged.
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
LC_SEGMENT_64 = 0x19
CS_ADHOC = 0x2
CS_LINKER_SIGNED = 0x20000
CS_EXECSEG_MAIN_BINARY = 0x1
CODEDIRECTORY_VERSION = 0x20400
CODEDIRECTORY_HEADER = 88
PAGE_LOG2 = 12


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


def segments(data):
    """(load command offset, name, vmaddr, vmsize, fileoff, filesize) of each LC_SEGMENT_64."""
    ncmds, sizeofcmds = struct.unpack_from("<II", data, 16)
    offset, found = 32, []
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmd == LC_SEGMENT_64:
            name = data[offset + 8 : offset + 24].rstrip(b"\0").decode()
            vmaddr, vmsize, fileoff, filesize = struct.unpack_from("<QQQQ", data, offset + 24)
            found.append((offset, name, vmaddr, vmsize, fileoff, filesize))
        offset += cmdsize
    return found, 32 + sizeofcmds


def first_section_offset(data):
    """The file offset of the first section with content: the end of the header padding."""
    ncmds = struct.unpack_from("<I", data, 16)[0]
    offset, lowest = 32, len(data)
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<II", data, offset)
        if cmd == LC_SEGMENT_64:
            nsects = struct.unpack_from("<I", data, offset + 64)[0]
            for index in range(nsects):
                section = offset + 72 + 80 * index
                size = struct.unpack_from("<Q", data, section + 40)[0]
                file_offset, = struct.unpack_from("<I", data, section + 48)
                flags, = struct.unpack_from("<I", data, section + 64)
                zerofill = flags & 0xFF in (0x1, 0xC, 0x12)
                if size and file_offset and not zerofill:
                    lowest = min(lowest, file_offset)
        offset += cmdsize
    return lowest


def adhoc_sign(data, identifier):
    """The bytes of `data` with an ad-hoc code signature added (see the module doc)."""
    found, commands_end = segments(data)
    if not found or found[-1][1] != "__LINKEDIT":
        raise Bad("__LINKEDIT is not the last segment")
    if commands_end + 16 > first_section_offset(data):
        raise Bad("no header padding for LC_CODE_SIGNATURE (link with -headerpad)")
    text = next(segment for segment in found if segment[1] == "__TEXT")
    link_cmd, _, _, _, link_fileoff, link_filesize = found[-1]
    if link_fileoff + link_filesize != len(data):
        raise Bad("__LINKEDIT does not end the file")
    sig_offset = (len(data) + 15) & ~15
    page = 1 << PAGE_LOG2
    ident = identifier.encode() + b"\0"
    n_code = (sig_offset + page - 1) // page
    cd_length = CODEDIRECTORY_HEADER + len(ident) + 32 * n_code
    sig_size = 12 + 8 + cd_length
    out = bytearray(data) + bytes(sig_offset - len(data))
    # Header: one more load command, written into the padding.
    ncmds, sizeofcmds = struct.unpack_from("<II", out, 16)
    struct.pack_into("<II", out, 16, ncmds + 1, sizeofcmds + 16)
    struct.pack_into("<IIII", out, commands_end, LC_CODE_SIGNATURE, 16, sig_offset, sig_size)
    # __LINKEDIT grows to cover the signature.
    new_filesize = sig_offset + sig_size - link_fileoff
    vmsize = (new_filesize + 0x3FFF) & ~0x3FFF
    old_vmsize = struct.unpack_from("<Q", out, link_cmd + 32)[0]
    struct.pack_into("<Q", out, link_cmd + 32, max(vmsize, old_vmsize))
    struct.pack_into("<Q", out, link_cmd + 48, new_filesize)
    hashes = b"".join(
        hashlib.sha256(bytes(out[slot * page : min((slot + 1) * page, sig_offset)])).digest()
        for slot in range(n_code)
    )
    directory = struct.pack(
        ">IIIIIIIIIBBBBIIIIQQQQ",
        CSMAGIC_CODEDIRECTORY,
        cd_length,
        CODEDIRECTORY_VERSION,
        CS_ADHOC | CS_LINKER_SIGNED,
        CODEDIRECTORY_HEADER + len(ident),  # hashOffset
        CODEDIRECTORY_HEADER,  # identOffset
        0,  # nSpecialSlots
        n_code,
        sig_offset,  # codeLimit
        32,
        CS_HASHTYPE_SHA256,
        0,  # platform
        PAGE_LOG2,
        0,  # spare2
        0,  # scatterOffset
        0,  # teamOffset
        0,  # spare3
        0,  # codeLimit64
        text[4],  # execSegBase
        text[5],  # execSegLimit
        CS_EXECSEG_MAIN_BINARY,
    )
    assert len(directory) == CODEDIRECTORY_HEADER
    superblob = struct.pack(">IIIII", CSMAGIC_EMBEDDED_SIGNATURE, sig_size, 1, 0, 20)
    out += superblob + directory + ident + hashes
    return bytes(out)


def sign_missing(path):
    with open(path, "rb") as file:
        data = file.read()
    if code_signature(data)[2] is not None:
        return "already signed"
    signed = adhoc_sign(data, path.rsplit("/", 1)[-1])
    pages = verify_signature(signed, *code_signature(signed)[2])
    with open(path, "wb") as file:
        file.write(signed)
    return f"ad-hoc signed, {pages} code pages"


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
    if len(argv) >= 2 and argv[0] == "sign-missing":
        for path in argv[1:]:
            try:
                print(f"macho: {path}: {sign_missing(path)}")
            except (Bad, struct.error, StopIteration) as error:
                print(f"macho: FAIL {path}: cannot sign: {error}")
                return 1
        return 0
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
