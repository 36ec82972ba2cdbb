"""Inspects every artifact in dist/ without running it (scripts/release-check.sh).

    check_dist.py DIST VERSION TOOLS_JSON

Checks that each archive, wheel, npm package and .mcpb bundle targets the platform its name
says: the binaries inside are ELF x86-64 or Mach-O of the right CPU with a verified ad-hoc
signature (packaging/macho.py); wheel tags, npm `os`/`cpu`, bundle `compatibility.platforms`
agree; the launcher pins every platform package at VERSION and lists the SHA-256 of every
binary it may run; every artifact carries LICENSE-MIT and LICENSE-APACHE equal to the
repository's, and the wheel and npm manifests name the licence and the repository; bundles exist
for macOS only, and their tools (names and descriptions) are exactly the ones an installed
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

# Rust target → (npm os, npm cpu, wheel platform tag suffix, Mach-O arch or None for ELF).
PLATFORMS = {
    "x86_64-unknown-linux-gnu": ("linux", "x64", "manylinux_2_17_x86_64", None),
    "aarch64-apple-darwin": ("darwin", "arm64", "_arm64", "arm64"),
    "x86_64-apple-darwin": ("darwin", "x64", "macosx_10_12_x86_64", "x86_64"),
}
BINARIES = ("dotaios", "dotaios-mcp")
EM_X86_64 = 62
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LICENSES = {name: open(os.path.join(ROOT, name), "rb").read() for name in ("LICENSE-MIT", "LICENSE-APACHE")}
REPOSITORY = "https://github.com/dotaios/dotaios-rs"
# Claude Desktop, the only client that opens .mcpb bundles, has no Linux build.
BUNDLE_OSES = ("darwin",)


class Bad(Exception):
    pass


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
        check_licenses(lambda m: tar.extractfile(m).read(), f"dotaios-{version}-{target}/", path)
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
        info_dir = f"dotaios_rs-{version}.dist-info/"
        check_licenses(wheel.read, info_dir + "licenses/", path)
        metadata = wheel.read(info_dir + "METADATA").decode().split("\n\n", 1)[0].splitlines()
        for line in ("License-Expression: MIT OR Apache-2.0", f"Project-URL: Repository, {REPOSITORY}"):
            if line not in metadata:
                raise Bad(f"{path}: METADATA lacks {line!r}")
        for name in BINARIES:
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
        if manifest["tools"] != tools:
            raise Bad(f"{path}: tools {manifest['tools']} are not the adapter's {tools}")
        check_licenses(bundle.read, "", path)
        server = manifest["server"]
        if server["type"] != "binary" or server["mcp_config"]["args"][0] != "--path":
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
        archive = os.path.join(dist, "bin", f"dotaios-{version}-{target}.tar.gz")
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
