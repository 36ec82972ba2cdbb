#!/usr/bin/env bash
# Builds every release artifact into dist/ (docs/releasing.md): the `dotaios` and `dotaios-mcp`
# binaries for x86_64-unknown-linux-gnu, aarch64-apple-darwin and x86_64-apple-darwin, as
# tar.gz archives, PyPI wheels (maturin, `bindings = "bin"`), npm packages (the `dotaios-rs`
# launcher plus one package per platform), one .mcpb bundle per platform, server.json for the
# MCP registry, and SHA256SUMS over all of them.
#
# Inputs are pinned: `--locked` builds, the PyPI tools below at exact versions in a venv under
# the target directory, `@anthropic-ai/mcpb` at an exact version, Debian's rustc-web (its
# standard library source builds std for the macOS targets with -Zbuild-std). Nothing is
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
# maturin stamps wheel members with this time: the last commit's, so wheels repeat byte for byte.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}
export SOURCE_DATE_EPOCH

log() { echo "release: $*" >&2; }

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
}

# --- binaries and wheels -----------------------------------------------------------------------
# maturin builds the binaries (through cargo-zigbuild) and packs the wheel in one step; the
# archives, npm packages and bundles take the same binaries from the target directory.
build_linux() {
    log "build $LINUX"
    (cd packaging/pypi && PATH="$TOOLS/venv/bin:$PATH" CARGO_TARGET_DIR="$TARGET_DIR" \
        maturin build --quiet --release --locked --zig --target "$LINUX" \
        --compatibility manylinux2014 --out "$DIST/pypi")
    BIN_DIR[$LINUX]=$TARGET_DIR/$LINUX/release
}

build_macos() {
    local target=$1
    log "build $target"
    # Both macOS targets share one target directory, apart from the rustup toolchain's.
    (cd packaging/pypi && PATH="$TOOLS/debian-rust:$TOOLS/venv/bin:$PATH" \
        CARGO=/usr/bin/cargo RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
        CARGO_UNSTABLE_BUILD_STD=std,panic_abort CARGO_TARGET_DIR="$TARGET_DIR/release-macos" \
        maturin build --quiet --release --locked --zig --target "$target" --out "$DIST/pypi")
    BIN_DIR[$target]=$TARGET_DIR/release-macos/$target/release
}

# --- npm ---------------------------------------------------------------------------------------
npm_platform() {
    case $1 in
    x86_64-unknown-linux-gnu) echo "linux x64" ;;
    aarch64-apple-darwin) echo "darwin arm64" ;;
    x86_64-apple-darwin) echo "darwin x64" ;;
    esac
}

pack_npm() {
    log "npm packages"
    rm -rf "$WORK/npm"
    mkdir -p "$WORK/npm" "$DIST/npm"
    local launcher=$WORK/npm/dotaios-rs
    mkdir -p "$launcher"
    cp -r packaging/npm/launcher/. "$launcher/"
    local checksums="{}" optional="{}"
    for target in "$LINUX" "${MACOS[@]}"; do
        read -r os cpu <<<"$(npm_platform "$target")"
        local name="dotaios-rs-$os-$cpu" dir="$WORK/npm/dotaios-rs-$os-$cpu"
        mkdir -p "$dir/bin"
        install -m 0755 "${BIN_DIR[$target]}/dotaios" "${BIN_DIR[$target]}/dotaios-mcp" "$dir/bin/"
        python3 packaging/npm/platform_package.py "$name" "$VERSION" "$os" "$cpu" "$target" \
            >"$dir/package.json"
        printf '# %s\n\nThe `dotaios` and `dotaios-mcp` binaries for %s (%s), installed by the\n`dotaios-rs` package as its optional dependency. Install `dotaios-rs`, not this package.\n' \
            "$name" "$os-$cpu" "$target" >"$dir/README.md"
        (cd "$dir" && npm pack --silent --pack-destination "$DIST/npm" >/dev/null)
        checksums=$(python3 -c '
import hashlib, json, sys
sums = json.loads(sys.argv[1])
sums[sys.argv[2]] = {b: hashlib.sha256(open(sys.argv[3] + "/bin/" + b, "rb").read()).hexdigest()
                     for b in ("dotaios", "dotaios-mcp")}
print(json.dumps(sums, sort_keys=True))' "$checksums" "$name" "$dir")
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
pack_mcpb() {
    log "mcpb bundles"
    rm -rf "$WORK/mcpb"
    mkdir -p "$DIST/mcpb"
    for target in "$LINUX" "${MACOS[@]}"; do
        read -r os cpu <<<"$(npm_platform "$target")"
        local dir="$WORK/mcpb/$os-$cpu"
        mkdir -p "$dir/server"
        install -m 0755 "${BIN_DIR[$target]}/dotaios-mcp" "$dir/server/"
        python3 -c '
import json, sys
manifest = json.load(open(sys.argv[1]))
manifest["version"] = sys.argv[2]
manifest["compatibility"]["platforms"] = [sys.argv[3]]
print(json.dumps(manifest, indent=2))' packaging/mcpb/manifest.json "$VERSION" "$os" \
            >"$dir/manifest.json"
        "$TOOLS/npm/node_modules/.bin/mcpb" validate "$dir/manifest.json" >/dev/null
        "$TOOLS/npm/node_modules/.bin/mcpb" pack "$dir" "$DIST/mcpb/dotaios-rs-$VERSION-$os-$cpu.mcpb" \
            >/dev/null
    done
}

# --- archives, registry metadata, checksums ----------------------------------------------------
pack_archives() {
    log "archives"
    mkdir -p "$DIST/bin"
    for target in "$LINUX" "${MACOS[@]}"; do
        local name="dotaios-$VERSION-$target"
        rm -rf "${WORK:?}/$name"
        mkdir -p "$WORK/$name"
        install -m 0755 "${BIN_DIR[$target]}/dotaios" "${BIN_DIR[$target]}/dotaios-mcp" "$WORK/$name/"
        cp README.md "$WORK/$name/"
        # Fixed owner and time, sorted names: the archive depends only on its files.
        tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$WORK" -cf - "$name" |
            gzip -n -9 >"$DIST/bin/$name.tar.gz"
    done
}

main() {
    setup_tools
    rm -rf "$DIST"
    mkdir -p "$DIST"
    declare -gA BIN_DIR
    build_linux
    for target in "${MACOS[@]}"; do build_macos "$target"; done
    # zig signs arm64 executables only; x86_64 gets the same ad-hoc signature here, and its
    # wheel (packed by maturin before) the signed binaries.
    local x86=${BIN_DIR[x86_64-apple-darwin]}
    python3 packaging/macho.py sign-missing "$x86/dotaios" "$x86/dotaios-mcp"
    python3 packaging/rewheel.py "$(ls "$DIST"/pypi/dotaios_rs-"$VERSION"-*macosx_*_x86_64.whl)" "$x86"
    pack_archives
    pack_npm
    pack_mcpb
    cp packaging/registry/server.json "$DIST/server.json"
    (cd "$DIST" && find . -type f ! -name SHA256SUMS -printf '%P\n' | sort |
        xargs sha256sum >SHA256SUMS)
    log "done: $DIST"
}

main "$@"
