"""Inspects every artifact in dist/ without running it (scripts/release-check.sh).

    check_dist.py DIST VERSION "TOOL TOOL TOOL"

Checks that each archive, wheel, npm package and .mcpb bundle targets the platform its name
says: the binaries inside are ELF x86-64 or Mach-O of the right CPU with a verified ad-hoc
signature (packaging/macho.py); wheel tags, npm `os`/`cpu`, bundle `compatibility.platforms`
agree; the launcher pins every platform package at VERSION and lists the SHA-256 of every
binary it may run; the bundle's tools are the ones the adapter listed (third argument);
server.json is valid against the registry schema kept in packaging/registry/ and names VERSION;
SHA256SUMS covers every file. Needs `jsonschema` (installed by scripts/release.sh). Prints one
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

# Rust target → (npm os, npm cpu, wheel platform tag suffix, Mach-O arch or None for ELF).
PLATFORMS = {
    "x86_64-unknown-linux-gnu": ("linux", "x64", "manylinux_2_17_x86_64", None),
    "aarch64-apple-darwin": ("darwin", "arm64", "_arm64", "arm64"),
    "x86_64-apple-darwin": ("darwin", "x64", "macosx_10_12_x86_64", "x86_64"),
}
BINARIES = ("dotaios", "dotaios-mcp")
EM_X86_64 = 62


class Bad(Exception):
    pass


def binary_kind(data, arch, where):
    """Checks one binary's format; returns a short description."""
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


def check_archive(path, version, target, arch):
    with tarfile.open(path) as tar:
        for name in BINARIES:
            member = tar.getmember(f"dotaios-{version}-{target}/{name}")
            if not member.mode & 0o100:
                raise Bad(f"{path}: {name} is not executable")
            binary_kind(tar.extractfile(member).read(), arch, f"{path}:{name}")


def check_wheel(path, version, tag, arch):
    with zipfile.ZipFile(path) as wheel:
        wheel_file = wheel.read(f"dotaios_rs-{version}.dist-info/WHEEL").decode()
        tags = [line.split(": ", 1)[1] for line in wheel_file.splitlines() if line.startswith("Tag: ")]
        os_tag = "py3-none-manylinux" if arch is None else "py3-none-macosx_"
        cpu_tag = "_x86_64" if arch in (None, "x86_64") else "_arm64"
        if not tags or not all(t.startswith(os_tag) and t.endswith(cpu_tag) for t in tags):
            raise Bad(f"{path}: wheel tags {tags} are not for *{tag}")
        for name in BINARIES:
            info = wheel.getinfo(f"dotaios_rs-{version}.data/scripts/{name}")
            binary_kind(wheel.read(info), arch, f"{path}:{name}")


def npm_manifest(tar):
    return json.load(tar.extractfile("package/package.json"))


def check_npm(dist, version):
    launcher_path = os.path.join(dist, "npm", f"dotaios-rs-{version}.tgz")
    with tarfile.open(launcher_path) as tar:
        launcher = npm_manifest(tar)
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
            manifest = npm_manifest(tar)
            if (manifest["name"], manifest["version"], manifest["os"], manifest["cpu"]) != (
                name, version, [os_], [cpu]):
                raise Bad(f"{path}: package.json {manifest}")
            for binary in BINARIES:
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
        if sorted(tool["name"] for tool in manifest["tools"]) != sorted(tools):
            raise Bad(f"{path}: tools {manifest['tools']} are not the adapter's {tools}")
        server = manifest["server"]
        if server["type"] != "binary" or server["mcp_config"]["args"][0] != "--path":
            raise Bad(f"{path}: server {server}")
        info = bundle.getinfo(server["entry_point"])
        if not (info.external_attr >> 16) & 0o100:
            raise Bad(f"{path}: {server['entry_point']} is not executable")
        binary_kind(bundle.read(info), arch, f"{path}:{server['entry_point']}")


def check_server_json(dist, version, schema_path):
    path = os.path.join(dist, "server.json")
    document = json.load(open(path))
    schema = json.load(open(schema_path))
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(document), key=str)
    if errors:
        raise Bad(f"{path}: {errors[0].message}")
    versions = {document["version_detail"]["version"]}
    versions |= {package["version"] for package in document["packages"]}
    if versions != {version}:
        raise Bad(f"{path}: versions {versions} are not {version}")
    registries = sorted(package["registry_name"] for package in document["packages"])
    if registries != ["npm", "pypi"] or any(p["name"] != "dotaios-rs" for p in document["packages"]):
        raise Bad(f"{path}: packages {document['packages']}")
    return path


def main(argv):
    dist, version, tools = argv[0], argv[1], argv[2].split()
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "registry", "server.schema.json")
    checked = []
    for target, (os_, cpu, tag, arch) in PLATFORMS.items():
        archive = os.path.join(dist, "bin", f"dotaios-{version}-{target}.tar.gz")
        check_archive(archive, version, target, arch)
        wheels = [w for w in os.listdir(os.path.join(dist, "pypi")) if w.endswith(f"{tag}.whl")]
        if len(wheels) != 1:
            raise Bad(f"want one wheel for *{tag}, found {wheels}")
        wheel = os.path.join(dist, "pypi", wheels[0])
        check_wheel(wheel, version, tag, arch)
        bundle = os.path.join(dist, "mcpb", f"dotaios-rs-{version}-{os_}-{cpu}.mcpb")
        check_mcpb(bundle, version, os_, arch, tools)
        checked += [archive, wheel, bundle]
    checked += check_npm(dist, version)
    checked.append(check_server_json(dist, version, schema))
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
