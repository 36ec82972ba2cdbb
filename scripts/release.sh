#!/usr/bin/env bash
# Builds every release artifact into dist/ (docs/releasing.md): the `dotaios` and `dotaios-mcp`
# binaries for x86_64-unknown-linux-gnu, aarch64-apple-darwin, x86_64-apple-darwin and
# x86_64-pc-windows-gnu, as tar.gz archives (a zip for Windows), PyPI wheels (maturin,
# `bindings = "bin"`), npm packages (the `dotaios-rs` launcher plus one package per platform), one
# .mcpb bundle per macOS and Windows platform (Claude Desktop, the bundles' client, has no Linux
# build), server.json for the MCP registry, and SHA256SUMS over all of them. LICENSE-MIT and
# LICENSE-APACHE go into every artifact.
#
# Inputs are pinned: the Linux compiler is the toolchain rust-toolchain.toml names (checked
# below), `--locked` builds, the PyPI tools below at exact versions in a venv under
# the target directory, `@anthropic-ai/mcpb` at an exact version, Debian's rustc-web (its
# standard library source builds std for the macOS targets with -Zbuild-std), Debian's MinGW-w64
# linker with the pinned toolchain's x86_64-pc-windows-gnu target for Windows. Nothing is
# downloaded at run time except from the package registries. Builds go to CARGO_TARGET_DIR
# (default target/), so a second run and the CI's other steps reuse them.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

ZIGLANG=0.17.1
CARGO_ZIGBUILD=0.24.1
MATURIN=1.16.0
JSONSCHEMA=4.26.0
MCPB=2.1.2

TARGET_DIR=$(realpath -m "${CARGO_TARGET_DIR:-target}")
TOOLS=$TARGET_DIR/release-tools
WORK=$TARGET_DIR/release-work
DIST=$(realpath -m "${DIST_DIR:-dist}")
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
LINUX=x86_64-unknown-linux-gnu
MACOS=(aarch64-apple-darwin x86_64-apple-darwin)
source scripts/wine/setup.sh # WINDOWS_TARGET, windows_build_setup
WINDOWS=$WINDOWS_TARGET
TARGETS=("$LINUX" "${MACOS[@]}" "$WINDOWS")
source scripts/release-flags.sh # release_rustflags
# maturin stamps wheel members with this time: the last commit's, so wheels repeat byte for byte.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}
export SOURCE_DATE_EPOCH

log() { echo "release: $*" >&2; }
LICENSES=(LICENSE-MIT LICENSE-APACHE)

# The executable suffix of target $1: `.exe` for Windows, nothing elsewhere.
exe() {
    case $1 in
    *-windows-*) echo .exe ;;
    *) echo "" ;;
    esac
}

# The Linux binaries repeat byte for byte only with the same compiler: the one rust-toolchain.toml
# pins (rustup applies it to every cargo and rustc run below this directory).
check_toolchain() {
    local want have
    want=$(sed -n 's/^channel = "\(.*\)"$/\1/p' rust-toolchain.toml)
    have=$(rustc --version)
    case $have in
    "rustc $want "*) log "Linux compiler: $have (rust-toolchain.toml: $want)" ;;
    *)
        log "rustc is '$have', but rust-toolchain.toml pins $want (install it: rustup toolchain install $want)"
        exit 1
        ;;
    esac
}

# --- tools -------------------------------------------------------------------------------------
setup_tools() {
    mkdir -p "$TOOLS"
    local stamp="$TOOLS/venv/.pinned-$ZIGLANG-$CARGO_ZIGBUILD-$MATURIN-$JSONSCHEMA"
    if [ ! -e "$stamp" ]; then
        log "python tools (ziglang $ZIGLANG, cargo-zigbuild $CARGO_ZIGBUILD, maturin $MATURIN)"
        rm -rf "$TOOLS/venv"
        python3 -m venv "$TOOLS/venv"
        "$TOOLS/venv/bin/pip" install -q --disable-pip-version-check \
            "ziglang==$ZIGLANG" "cargo-zigbuild==$CARGO_ZIGBUILD" "maturin==$MATURIN" \
            "jsonschema==$JSONSCHEMA"
        touch "$stamp"
    fi
    if [ ! -x "$TOOLS/npm/node_modules/.bin/mcpb" ] ||
        ! grep -q "\"version\": \"$MCPB\"" "$TOOLS/npm/node_modules/@anthropic-ai/mcpb/package.json"; then
        log "@anthropic-ai/mcpb $MCPB"
        mkdir -p "$TOOLS/npm"
        npm install --silent --no-audit --no-fund --prefix "$TOOLS/npm" "@anthropic-ai/mcpb@$MCPB"
    fi
    if ! dpkg -s rustc-web cargo-web rust-web-src >/dev/null 2>&1; then
        if [ "$(id -u)" -ne 0 ]; then
            log "install rustc-web cargo-web rust-web-src (apt-get, as root)"
            exit 1
        fi
        apt-get update -qq
        apt-get -o DPkg::Lock::Timeout=600 install -y -qq rustc-web cargo-web rust-web-src >/dev/null
    fi
    # Debian's cargo and rustc first on PATH for the macOS builds (maturin and cargo-zigbuild run
    # `cargo` from PATH); the rustup toolchain stays the one for Linux.
    mkdir -p "$TOOLS/debian-rust"
    ln -sf /usr/bin/cargo "$TOOLS/debian-rust/cargo"
    ln -sf /usr/bin/rustc "$TOOLS/debian-rust/rustc"
    log "macOS compiler: $(/usr/bin/rustc --version) (Debian rustc-web $(dpkg-query -W -f '${Version}' rustc-web))"
}

# --- binaries and wheels -----------------------------------------------------------------------
# maturin builds the binaries (through cargo-zigbuild) and packs the wheel in one step; the
# archives, npm packages and bundles take the same binaries from the target directory.
# maturin is left to print cargo's progress: a first build of a target takes several minutes.
# The wheel's licence files come from the repository root (pyproject.toml `license-files`).
build_linux() {
    log "build $LINUX (cargo's progress follows; a first build takes several minutes)"
    bash scripts/release-linux.sh "$TOOLS" "$TARGET_DIR" "$DIST/pypi"
    BIN_DIR[$LINUX]=$TARGET_DIR/$LINUX/release
}

# The deployment target is given, so that nothing asks for `xcrun` (no macOS SDK here): the
# oldest macOS each target supports (docs/releasing.md).
macos_deployment_target() {
    case $1 in
    aarch64-apple-darwin) echo 11.0 ;;
    x86_64-apple-darwin) echo 10.12 ;;
    esac
}

build_macos() {
    local target=$1
    log "build $target (cargo's progress follows; a first build takes several minutes)"
    cp "${LICENSES[@]}" packaging/pypi/
    # Both macOS targets share one target directory, apart from the rustup toolchain's.
    (cd packaging/pypi && PATH="$TOOLS/debian-rust:$TOOLS/venv/bin:$PATH" \
        CARGO=/usr/bin/cargo RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
        MACOSX_DEPLOYMENT_TARGET="$(macos_deployment_target "$target")" \
        CARGO_UNSTABLE_BUILD_STD=std,panic_abort CARGO_TARGET_DIR="$TARGET_DIR/release-macos" \
        maturin build --release --locked --zig --target "$target" --out "$DIST/pypi")
    BIN_DIR[$target]=$TARGET_DIR/release-macos/$target/release
}

# The pinned rustup toolchain with its x86_64-pc-windows-gnu target and Debian's MinGW-w64 linker
# (scripts/wine/setup.sh); the same path remaps as the Linux build (scripts/release-flags.sh),
# and no link time stamp in the PE header, so the bytes depend on the sources alone.
build_windows() {
    log "build $WINDOWS (cargo's progress follows; a first build takes several minutes)"
    windows_build_setup
    cp "${LICENSES[@]}" packaging/pypi/
    local flags
    flags="$(release_rustflags "$ROOT" "$TARGET_DIR") -C link-arg=-Wl,--no-insert-timestamp"
    (cd packaging/pypi && PATH="$TOOLS/venv/bin:$PATH" CARGO_TARGET_DIR="$TARGET_DIR" \
        RUSTFLAGS="$flags" maturin build --release --locked --target "$WINDOWS" --out "$DIST/pypi")
    BIN_DIR[$WINDOWS]=$TARGET_DIR/$WINDOWS/release
}

# --- npm ---------------------------------------------------------------------------------------
npm_platform() {
    case $1 in
    x86_64-unknown-linux-gnu) echo "linux x64" ;;
    aarch64-apple-darwin) echo "darwin arm64" ;;
    x86_64-apple-darwin) echo "darwin x64" ;;
    x86_64-pc-windows-gnu) echo "win32 x64" ;;
    esac
}

pack_npm() {
    log "npm packages"
    rm -rf "$WORK/npm"
    mkdir -p "$WORK/npm" "$DIST/npm"
    local launcher=$WORK/npm/dotaios-rs
    mkdir -p "$launcher"
    cp -r packaging/npm/launcher/. "$launcher/"
    cp "${LICENSES[@]}" "$launcher/"
    local checksums="{}" optional="{}"
    for target in "${TARGETS[@]}"; do
        read -r os cpu <<<"$(npm_platform "$target")"
        local name="dotaios-rs-$os-$cpu" dir="$WORK/npm/dotaios-rs-$os-$cpu" x
        x=$(exe "$target")
        mkdir -p "$dir/bin"
        install -m 0755 "${BIN_DIR[$target]}/dotaios$x" "${BIN_DIR[$target]}/dotaios-mcp$x" "$dir/bin/"
        cp "${LICENSES[@]}" "$dir/"
        python3 packaging/npm/platform_package.py "$name" "$VERSION" "$os" "$cpu" "$target" \
            >"$dir/package.json"
        printf '# %s\n\nThe `dotaios` and `dotaios-mcp` binaries for %s (%s), installed by the\n`dotaios-rs` package as its optional dependency. Install `dotaios-rs`, not this package.\n' \
            "$name" "$os-$cpu" "$target" >"$dir/README.md"
        (cd "$dir" && npm pack --silent --pack-destination "$DIST/npm" >/dev/null)
        checksums=$(python3 -c '
import hashlib, json, sys
sums = json.loads(sys.argv[1])
sums[sys.argv[2]] = {b: hashlib.sha256(open(sys.argv[3] + "/bin/" + b, "rb").read()).hexdigest()
                     for b in ("dotaios" + sys.argv[4], "dotaios-mcp" + sys.argv[4])}
print(json.dumps(sums, sort_keys=True))' "$checksums" "$name" "$dir" "$x")
        optional=$(python3 -c '
import json, sys
deps = json.loads(sys.argv[1]); deps[sys.argv[2]] = sys.argv[3]
print(json.dumps(deps, sort_keys=True))' "$optional" "$name" "$VERSION")
    done
    python3 -c '
import json, sys
print(json.dumps(json.loads(sys.argv[1]), indent=2, sort_keys=True))' "$checksums" \
        >"$launcher/checksums.json"
    python3 -c '
import json, sys
manifest = json.load(open(sys.argv[1]))
manifest["version"] = sys.argv[2]
manifest["optionalDependencies"] = json.loads(sys.argv[3])
print(json.dumps(manifest, indent=2))' packaging/npm/launcher/package.json "$VERSION" "$optional" \
        >"$launcher/package.json"
    (cd "$launcher" && npm pack --silent --pack-destination "$DIST/npm" >/dev/null)
}

# --- MCP bundles -------------------------------------------------------------------------------
# Claude Desktop, the client that opens bundles, exists for macOS and Windows only, so dist/ gets
# the macOS and Windows bundles; the Linux one is packed into the work directory alone, for
# release-check.sh to start its server as the manifest says (the bundle layout is the same on
# every platform, with `server/dotaios-mcp.exe` on Windows).
# Each manifest lists the tools the Linux adapter itself lists, with its descriptions.
pack_mcpb() {
    log "mcpb bundles"
    rm -rf "$WORK/mcpb"
    mkdir -p "$DIST/mcpb" "$WORK/mcpb"
    python3 packaging/mcp_roundtrip.py --tools-json "$ROOT/examples/aios" \
        "${BIN_DIR[$LINUX]}/dotaios-mcp" >"$WORK/mcpb/tools.json"
    for target in "${TARGETS[@]}"; do
        read -r os cpu <<<"$(npm_platform "$target")"
        local dir="$WORK/mcpb/$os-$cpu" out="$DIST/mcpb"
        [ "$target" != "$LINUX" ] || out="$WORK/mcpb"
        mkdir -p "$dir/server"
        install -m 0755 "${BIN_DIR[$target]}/dotaios-mcp$(exe "$target")" "$dir/server/"
        cp "${LICENSES[@]}" "$dir/"
        python3 packaging/mcpb/manifest.py packaging/mcpb/manifest.json "$VERSION" "$os" \
            "$WORK/mcpb/tools.json" >"$dir/manifest.json"
        "$TOOLS/npm/node_modules/.bin/mcpb" validate "$dir/manifest.json" >/dev/null
        "$TOOLS/npm/node_modules/.bin/mcpb" pack "$dir" "$out/dotaios-rs-$VERSION-$os-$cpu.mcpb" \
            >/dev/null
    done
}

# --- archives, registry metadata, checksums ----------------------------------------------------
pack_archives() {
    log "archives"
    mkdir -p "$DIST/bin"
    for target in "${TARGETS[@]}"; do
        local name="dotaios-$VERSION-$target" x
        x=$(exe "$target")
        rm -rf "${WORK:?}/$name"
        mkdir -p "$WORK/$name"
        install -m 0755 "${BIN_DIR[$target]}/dotaios$x" "${BIN_DIR[$target]}/dotaios-mcp$x" "$WORK/$name/"
        cp README.md "${LICENSES[@]}" "$WORK/$name/"
        # Fixed owner, modes and time, sorted names: the archive depends only on its files.
        if [ "$target" = "$WINDOWS" ]; then
            python3 packaging/zip_dir.py "$DIST/bin/$name.zip" "$WORK" "$name"
        else
            tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$WORK" -cf - "$name" |
                gzip -n -9 >"$DIST/bin/$name.tar.gz"
        fi
    done
}

main() {
    check_toolchain
    setup_tools
    rm -rf "$DIST"
    mkdir -p "$DIST"
    declare -gA BIN_DIR
    build_linux
    for target in "${MACOS[@]}"; do build_macos "$target"; done
    build_windows
    # zig signs arm64 executables only; x86_64 gets the same ad-hoc signature here, and its
    # wheel (packed by maturin before) the signed binaries.
    local x86=${BIN_DIR[x86_64-apple-darwin]}
    python3 packaging/macho.py sign-missing "$x86/dotaios" "$x86/dotaios-mcp"
    python3 packaging/rewheel.py "$(ls "$DIST"/pypi/dotaios_rs-"$VERSION"-*macosx_*_x86_64.whl)" "$x86"
    pack_archives
    pack_npm
    pack_mcpb
    python3 packaging/registry/server_json.py packaging/registry/server.json "$VERSION" "$DIST"
    (cd "$DIST" && find . -type f ! -name SHA256SUMS -printf '%P\n' | sort |
        xargs sha256sum >SHA256SUMS)
    log "done: $DIST"
}

main "$@"
