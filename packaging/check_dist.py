"""Inspects every artifact in dist/ without running it (scripts/release-check.sh).

    check_dist.py DIST VERSION TOOLS_JSON

Checks that each archive (a zip for Windows), wheel, npm package and .mcpb bundle targets the
platform its name says: the binaries inside are ELF x86-64, Mach-O of the right CPU with a
verified ad-hoc signature (packaging/macho.py), or PE32+ x86-64 console executables named
`.exe`; wheel tags, npm `os`/`cpu`, bundle `compatibility.platforms`
agree; the launcher pins every platform package at VERSION and lists the SHA-256 of every
binary it may run; every artifact carries LICENSE-MIT and LICENSE-APACHE equal to the
repository's, and the wheel and npm manifests name the licence and the repository; bundles exist
for macOS and Windows only, and their tools (names and descriptions) are exactly the ones an installed
adapter listed (TOOLS_JSON, from `mcp_roundtrip.py --tools-json`); server.json is valid against
the registry schema kept in packaging/registry/, names VERSION, and lists every bundle with its
SHA-256; SHA256SUMS covers every file. Needs `jsonschema` (installed by scripts/release.sh). Prints one
line per artifact with its size and SHA-256; exits 1 on the first failure.
"""

import hashlib
import io
import json
import os
import sys
import tarfile
import zipfile

import jsonschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import macho  # noqa: E402

# The "arch" of a Windows target: its binaries are PE32+ executables (pe_kind).
PE = "pe"
# Rust target → (npm os, npm cpu, wheel platform tag suffix, Mach-O arch, PE, or None for ELF).
PLATFORMS = {
    "x86_64-unknown-linux-gnu": ("linux", "x64", "manylinux_2_17_x86_64", None),
    "aarch64-apple-darwin": ("darwin", "arm64", "_arm64", "arm64"),
    "x86_64-apple-darwin": ("darwin", "x64", "macosx_10_12_x86_64", "x86_64"),
    "x86_64-pc-windows-gnu": ("win32", "x64", "win_amd64", PE),
}
BINARIES = ("dotaios", "dotaios-mcp")
EM_X86_64 = 62
# PE/COFF (Microsoft's PE format specification): the machine, optional header magic and subsystem
# of a 64-bit x86 console program.
IMAGE_FILE_MACHINE_AMD64 = 0x8664
PE32_PLUS_MAGIC = 0x20B
IMAGE_SUBSYSTEM_WINDOWS_CUI = 3
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LICENSES = {name: open(os.path.join(ROOT, name), "rb").read() for name in ("LICENSE-MIT", "LICENSE-APACHE")}
REPOSITORY = "https://github.com/dotaios/dotaios-rs"
# Claude Desktop, the only client that opens .mcpb bundles, has no Linux build.
BUNDLE_OSES = ("darwin", "win32")


class Bad(Exception):
    pass


def exe(arch):
    """The executable suffix of a platform's binaries."""
    return ".exe" if arch == PE else ""


def binary_names(arch):
    return [name + exe(arch) for name in BINARIES]


def pe_kind(data, where):
    """Checks a PE32+ x86-64 console executable: the MZ stub's e_lfanew leads to `PE\\0\\0`, the
    COFF header's Machine is AMD64, the optional header is PE32+ and its Subsystem the console."""
    def u16(at):
        if at + 2 > len(data):
            raise Bad(f"{where}: PE header truncated at {at:#x}")
        return int.from_bytes(data[at:at + 2], "little")
    if data[:2] != b"MZ" or len(data) < 0x40:
        raise Bad(f"{where}: no MZ header")
    pe = int.from_bytes(data[0x3C:0x40], "little")
    if data[pe:pe + 4] != b"PE\0\0":
        raise Bad(f"{where}: no PE signature at e_lfanew {pe:#x}")
    coff = pe + 4
    machine, optional = u16(coff), coff + 20
    if machine != IMAGE_FILE_MACHINE_AMD64:
        raise Bad(f"{where}: PE machine {machine:#x}, want {IMAGE_FILE_MACHINE_AMD64:#x} (x86-64)")
    if u16(coff + 16) < 70 or u16(optional) != PE32_PLUS_MAGIC:
        raise Bad(f"{where}: optional header magic {u16(optional):#x}, want PE32+ {PE32_PLUS_MAGIC:#x}")
    subsystem = u16(optional + 68)
    if subsystem != IMAGE_SUBSYSTEM_WINDOWS_CUI:
        raise Bad(f"{where}: PE subsystem {subsystem}, want {IMAGE_SUBSYSTEM_WINDOWS_CUI} (console)")
    return "PE32+ x86-64 console"


def check_licenses(read, prefix, where):
    """Both licence texts at `prefix`, byte for byte the repository's; `read(name)` reads a member."""
    for name, text in LICENSES.items():
        try:
            data = read(prefix + name)
        except KeyError:
            raise Bad(f"{where}: {prefix}{name} missing") from None
        if data != text:
            raise Bad(f"{where}: {prefix}{name} differs from the repository's")


def binary_kind(data, arch, where):
    """Checks one binary's format; returns a short description."""
    if arch == PE:
        return pe_kind(data, where)
    if arch is None:
        if data[:4] != b"\x7fELF" or data[4] != 2 or int.from_bytes(data[18:20], "little") != EM_X86_64:
            raise Bad(f"{where}: not an ELF64 x86-64 executable")
        return "ELF x86-64"
    try:
        cputype, filetype, signature = macho.code_signature(data)
        if cputype != macho.CPU_TYPES[arch] or filetype != macho.MH_EXECUTE:
            raise Bad(f"{where}: Mach-O CPU {cputype:#x} type {filetype}, want {arch} MH_EXECUTE")
        if signature is None:
            raise Bad(f"{where}: no LC_CODE_SIGNATURE (unsigned)")
        macho.verify_signature(data, *signature)
    except macho.Bad as error:
        raise Bad(f"{where}: {error}") from None
    return f"Mach-O {arch}, signed"


def archive_name(dist, version, target, arch):
    extension = ".zip" if arch == PE else ".tar.gz"
    return os.path.join(dist, "bin", f"dotaios-{version}-{target}{extension}")


def check_archive(path, version, target, arch):
    prefix = f"dotaios-{version}-{target}/"
    if arch == PE:
        with zipfile.ZipFile(path) as archive:
            check_licenses(archive.read, prefix, path)
            archive.getinfo(prefix + "README.md")
            for name in binary_names(arch):
                binary_kind(archive.read(prefix + name), arch, f"{path}:{name}")
        return
    with tarfile.open(path) as tar:
        check_licenses(lambda m: tar.extractfile(m).read(), prefix, path)
        for name in BINARIES:
            member = tar.getmember(prefix + name)
            if not member.mode & 0o100:
                raise Bad(f"{path}: {name} is not executable")
            binary_kind(tar.extractfile(member).read(), arch, f"{path}:{name}")


def check_wheel(path, version, tag, arch):
    with zipfile.ZipFile(path) as wheel:
        wheel_file = wheel.read(f"dotaios_rs-{version}.dist-info/WHEEL").decode()
        tags = [line.split(": ", 1)[1] for line in wheel_file.splitlines() if line.startswith("Tag: ")]
        os_tag = {None: "py3-none-manylinux", PE: "py3-none-win"}.get(arch, "py3-none-macosx_")
        cpu_tag = {None: "_x86_64", "x86_64": "_x86_64", PE: "_amd64"}.get(arch, "_arm64")
        if not tags or not all(t.startswith(os_tag) and t.endswith(cpu_tag) for t in tags):
            raise Bad(f"{path}: wheel tags {tags} are not for *{tag}")
        info_dir = f"dotaios_rs-{version}.dist-info/"
        check_licenses(wheel.read, info_dir + "licenses/", path)
        metadata = wheel.read(info_dir + "METADATA").decode().split("\n\n", 1)[0].splitlines()
        for line in ("License-Expression: MIT OR Apache-2.0", f"Project-URL: Repository, {REPOSITORY}"):
            if line not in metadata:
                raise Bad(f"{path}: METADATA lacks {line!r}")
        for name in binary_names(arch):
            info = wheel.getinfo(f"dotaios_rs-{version}.data/scripts/{name}")
            binary_kind(wheel.read(info), arch, f"{path}:{name}")


def npm_manifest(tar, path):
    manifest = json.load(tar.extractfile("package/package.json"))
    check_licenses(lambda m: tar.extractfile(m).read(), "package/", path)
    url = manifest.get("repository", {}).get("url", "")
    if manifest.get("license") != "MIT OR Apache-2.0" or REPOSITORY not in url:
        raise Bad(f"{path}: package.json license/repository {manifest.get('license')} {url!r}")
    return manifest


def check_npm(dist, version):
    launcher_path = os.path.join(dist, "npm", f"dotaios-rs-{version}.tgz")
    with tarfile.open(launcher_path) as tar:
        launcher = npm_manifest(tar, launcher_path)
        checksums = json.load(tar.extractfile("package/checksums.json"))
        names = tar.getnames()
    want = {f"dotaios-rs-{os_}-{cpu}": version for os_, cpu, _, _ in PLATFORMS.values()}
    if launcher["version"] != version or launcher.get("optionalDependencies") != want:
        raise Bad(f"{launcher_path}: version/optionalDependencies {launcher.get('optionalDependencies')}")
    for script in ("package/bin/dotaios.js", "package/bin/dotaios-mcp.js", "package/lib/run.js"):
        if script not in names:
            raise Bad(f"{launcher_path}: {script} missing")
    rows = [launcher_path]
    for target, (os_, cpu, _, arch) in PLATFORMS.items():
        name = f"dotaios-rs-{os_}-{cpu}"
        path = os.path.join(dist, "npm", f"{name}-{version}.tgz")
        with tarfile.open(path) as tar:
            manifest = npm_manifest(tar, path)
            if (manifest["name"], manifest["version"], manifest["os"], manifest["cpu"]) != (
                name, version, [os_], [cpu]):
                raise Bad(f"{path}: package.json {manifest}")
            for binary in binary_names(arch):
                member = tar.getmember(f"package/bin/{binary}")
                data = tar.extractfile(member).read()
                if not member.mode & 0o100:
                    raise Bad(f"{path}: {binary} is not executable")
                binary_kind(data, arch, f"{path}:{binary}")
                if checksums[name][binary] != hashlib.sha256(data).hexdigest():
                    raise Bad(f"{path}: {binary} differs from the launcher's checksum")
        rows.append(path)
    return rows


def check_mcpb(path, version, os_, arch, tools):
    with zipfile.ZipFile(path) as bundle:
        manifest = json.loads(bundle.read("manifest.json"))
        if manifest["version"] != version or manifest["compatibility"]["platforms"] != [os_]:
            raise Bad(f"{path}: version/platforms {manifest['version']} {manifest['compatibility']}")
        if manifest["tools"] != tools:
            raise Bad(f"{path}: tools {manifest['tools']} are not the adapter's {tools}")
        check_licenses(bundle.read, "", path)
        server = manifest["server"]
        entry = f"server/dotaios-mcp{exe(arch)}"
        if (server["type"], server["entry_point"], server["mcp_config"]["command"]) != (
                "binary", entry, "${__dirname}/" + entry) or server["mcp_config"]["args"][0] != "--path":
            raise Bad(f"{path}: server {server}")
        info = bundle.getinfo(server["entry_point"])
        if not (info.external_attr >> 16) & 0o100:
            raise Bad(f"{path}: {server['entry_point']} is not executable")
        binary_kind(bundle.read(info), arch, f"{path}:{server['entry_point']}")


def check_server_json(dist, version, schema_path, bundles):
    """server.json: valid against the stored schema, at VERSION, naming the npm and PyPI packages
    and exactly the bundles in `bundles` by download address and SHA-256."""
    path = os.path.join(dist, "server.json")
    document = json.load(open(path))
    schema = json.load(open(schema_path))
    validator_class = jsonschema.validators.validator_for(schema)
    validator = validator_class(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(document), key=str)
    if errors:
        raise Bad(f"{path}: {errors[0].message}")
    if document.get("$schema") != schema["$id"]:
        raise Bad(f"{path}: $schema {document.get('$schema')} is not the stored schema {schema['$id']}")
    versions = {document["version"]} | {package["version"] for package in document["packages"]}
    if versions != {version}:
        raise Bad(f"{path}: versions {versions} are not {version}")
    if document["repository"]["url"] != REPOSITORY:
        raise Bad(f"{path}: repository {document['repository']}")
    registries = {}
    for package in document["packages"]:
        registries.setdefault(package["registryType"], []).append(package)
    for kind in ("npm", "pypi"):
        if [p["identifier"] for p in registries.get(kind, [])] != ["dotaios-rs"]:
            raise Bad(f"{path}: {kind} packages {registries.get(kind)}")
    listed = {}
    for package in registries.get("mcpb", []):
        name = package["identifier"].rsplit("/", 1)[-1]
        if package["identifier"] != f"{REPOSITORY}/releases/download/v{version}/{name}":
            raise Bad(f"{path}: bundle address {package['identifier']}")
        listed[name] = package.get("fileSha256")
    want = {os.path.basename(b): hashlib.sha256(open(b, "rb").read()).hexdigest() for b in bundles}
    if listed != want:
        raise Bad(f"{path}: bundles {listed} are not the built ones {want}")
    if set(registries) != {"npm", "pypi", "mcpb"}:
        raise Bad(f"{path}: registry types {sorted(registries)}")
    return path


def main(argv):
    dist, version, tools = argv[0], argv[1], json.load(open(argv[2]))
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "registry", "server.schema.json")
    checked, bundles = [], []
    for target, (os_, cpu, tag, arch) in PLATFORMS.items():
        archive = archive_name(dist, version, target, arch)
        check_archive(archive, version, target, arch)
        wheels = [w for w in os.listdir(os.path.join(dist, "pypi")) if w.endswith(f"{tag}.whl")]
        if len(wheels) != 1:
            raise Bad(f"want one wheel for *{tag}, found {wheels}")
        wheel = os.path.join(dist, "pypi", wheels[0])
        check_wheel(wheel, version, tag, arch)
        checked += [archive, wheel]
        if os_ in BUNDLE_OSES:
            bundle = os.path.join(dist, "mcpb", f"dotaios-rs-{version}-{os_}-{cpu}.mcpb")
            check_mcpb(bundle, version, os_, arch, tools)
            bundles.append(bundle)
    present = sorted(os.path.join(dist, "mcpb", f) for f in os.listdir(os.path.join(dist, "mcpb")))
    if present != sorted(bundles):
        raise Bad(f"bundles in dist/mcpb are {present}, want {sorted(bundles)}")
    checked += bundles
    checked += check_npm(dist, version)
    checked.append(check_server_json(dist, version, schema, bundles))
    sums = {}
    for line in open(os.path.join(dist, "SHA256SUMS")):
        digest, name = line.split()
        sums[os.path.normpath(os.path.join(dist, name))] = digest
    files = {os.path.normpath(os.path.join(root, f)) for root, _, fs in os.walk(dist) for f in fs}
    files.discard(os.path.normpath(os.path.join(dist, "SHA256SUMS")))
    if set(sums) != files:
        raise Bad(f"SHA256SUMS covers {sorted(set(sums) ^ files)} wrongly")
    for path in sorted(checked):
        data = open(path, "rb").read()
        digest = hashlib.sha256(data).hexdigest()
        if sums[os.path.normpath(path)] != digest:
            raise Bad(f"{path}: SHA256SUMS disagrees")
        print(f"artifact: {os.path.relpath(path, dist)} {len(data)} bytes sha256 {digest}")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except (Bad, KeyError, OSError, ValueError) as error:
        print(f"check-dist: FAIL {error}", file=sys.stderr)
        sys.exit(1)
