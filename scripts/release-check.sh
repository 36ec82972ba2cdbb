#!/usr/bin/env bash
# The release check run by .ci/run (docs/releasing.md): builds every artifact with
# scripts/release.sh, then
# - runs the Linux ones here: the wheel installed into a fresh venv, the npm tarballs installed
#   offline into a temporary prefix (`npm install ./….tgz`), the Linux .mcpb bundle (packed into
#   the work directory only: dist/ has macOS bundles alone) unpacked and its server started as its
#   manifest says; each gives `--version`, `mcp status --path
#   examples/aios` and a real MCP round trip (initialize, tools/list, tools/call), and
#   `mcp install` prints the version-pinned launcher of its install;
# - checks the launcher's refusals: no platform package, and a binary whose checksum differs;
# - runs the Windows ones under Wine (scripts/wine/setup.sh; not on real Windows): the zip's
#   `dotaios.exe --version` and `mcp status`, and an MCP round trip of the zip's and the win32
#   bundle's `dotaios-mcp.exe`;
# - inspects the macOS ones without running them (no macOS here): Mach-O CPU type, MH_EXECUTE,
#   a verified ad-hoc code signature, and package metadata for the right platform; every Windows
#   executable in every artifact is PE32+, x86-64 and a console program;
# - checks licences and metadata in every artifact, validates the bundles' manifests (their
#   tools as the installed adapter lists them) and server.json (packaging/check_dist.py);
# - builds the Linux binaries a second time elsewhere and checks they repeat byte for byte
#   (scripts/release-repeat.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
START=$(date +%s)

bash scripts/release.sh

TARGET_DIR=$(realpath -m "${CARGO_TARGET_DIR:-target}")
DIST=$(realpath -m "${DIST_DIR:-dist}")
PY=$TARGET_DIR/release-tools/venv/bin/python
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
AIOS=$ROOT/examples/aios
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/dotaios-release-check.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

log() { echo "release-check: $*" >&2; }
fail() {
    echo "release-check: FAIL $*" >&2
    exit 1
}

# Runs one installed `dotaios`/`dotaios-mcp` pair; $3 is the launcher `mcp install` must print.
exercise() {
    local cli=$1 adapter=$2 launcher=$3 what=$4
    [ "$("$cli" --version)" = "$VERSION" ] || fail "$what: dotaios --version"
    [ "$("$adapter" --version | head -n 1)" != "" ] || fail "$what: dotaios-mcp --version"
    "$cli" mcp status --path "$AIOS" >"$SCRATCH/status.txt" || {
        cat "$SCRATCH/status.txt" >&2
        fail "$what: mcp status"
    }
    local install
    install=$("$cli" mcp install --dry-run --agent claude --path "$AIOS" 2>&1) ||
        fail "$what: mcp install: $install"
    grep -qxF "Launcher: $launcher" <<<"$install" || fail "$what: mcp install printed: $install"
    TOOLS=$("$PY" packaging/mcp_roundtrip.py "$AIOS" "$adapter") || fail "$what: MCP round trip"
    log "ok: $what (--version, mcp status, mcp install → $launcher, MCP round trip: $TOOLS)"
}

# --- PyPI: the Linux wheel in a fresh venv ----------------------------------------------------
python3 -m venv "$SCRATCH/venv"
"$SCRATCH/venv/bin/pip" install -q --no-index --disable-pip-version-check \
    "$DIST"/pypi/dotaios_rs-"$VERSION"-*manylinux*x86_64.whl
# `mcp install` prints the uvx launcher only where `uvx` is found (contract 06 §2.4): a
# stand-in on PATH that is never run; without it the venv's own adapter is the launcher.
mkdir -p "$SCRATCH/uvx-bin"
printf '#!/bin/sh\nexit 0\n' >"$SCRATCH/uvx-bin/uvx"
chmod 755 "$SCRATCH/uvx-bin/uvx"
PATH="$SCRATCH/uvx-bin:$PATH" exercise "$SCRATCH/venv/bin/dotaios" "$SCRATCH/venv/bin/dotaios-mcp" \
    "uvx --from dotaios-rs==$VERSION dotaios-mcp" "wheel in a venv"

# --- npm: launcher + Linux platform package, offline ------------------------------------------
NPM_OPTS=(--offline --no-audit --no-fund --silent --cache "$SCRATCH/npm-cache")
mkdir -p "$SCRATCH/npm"
(cd "$SCRATCH/npm" && npm init -y >/dev/null &&
    npm install "${NPM_OPTS[@]}" "$DIST/npm/dotaios-rs-$VERSION.tgz" \
        "$DIST/npm/dotaios-rs-linux-x64-$VERSION.tgz")
BIN=$SCRATCH/npm/node_modules/.bin
exercise "$BIN/dotaios" "$BIN/dotaios-mcp" \
    "npx -y --package dotaios-rs@$VERSION dotaios-mcp" "npm launcher"
[ "$(cd "$SCRATCH/npm" && npx --no-install dotaios-mcp --version | head -n 1)" != "" ] ||
    fail "npx dotaios-mcp --version"
# A binary that is not the released one is refused by checksum, and nothing runs.
PLATFORM_BIN=$SCRATCH/npm/node_modules/dotaios-rs-linux-x64/bin/dotaios-mcp
cp "$PLATFORM_BIN" "$SCRATCH/good"
printf 'x' >>"$PLATFORM_BIN"
if out=$("$BIN/dotaios-mcp" --version 2>&1); then fail "a corrupt binary ran: $out"; fi
grep -q "^dotaios-rs: refusing to run .*dotaios-mcp: its SHA-256" <<<"$out" ||
    fail "corrupt binary message: $out"
cp "$SCRATCH/good" "$PLATFORM_BIN"
# Without its platform package, one line naming the platform and the other ways to install.
mkdir -p "$SCRATCH/npm-bare"
(cd "$SCRATCH/npm-bare" && npm init -y >/dev/null &&
    npm install "${NPM_OPTS[@]}" --omit=optional "$DIST/npm/dotaios-rs-$VERSION.tgz")
[ ! -e "$SCRATCH/npm-bare/node_modules/dotaios-rs-linux-x64" ] || fail "platform package installed"
if out=$("$SCRATCH/npm-bare/node_modules/.bin/dotaios" --version 2>&1); then
    fail "ran without a platform package: $out"
fi
[ "$(wc -l <<<"$out")" -eq 1 ] &&
    grep -q "dotaios-rs-linux-x64 for linux x64 is not installed.*pipx install dotaios-rs" <<<"$out" ||
    fail "missing platform message: $out"
log "ok: npm launcher refuses a changed binary and names the missing platform package"

# --- the Linux .mcpb bundle, started as its manifest says -------------------------------------
[ ! -e "$DIST/mcpb/dotaios-rs-$VERSION-linux-x64.mcpb" ] || fail "a Linux bundle is in dist/"
mkdir -p "$SCRATCH/mcpb"
"$TARGET_DIR/release-tools/npm/node_modules/.bin/mcpb" unpack \
    "$TARGET_DIR/release-work/mcpb/dotaios-rs-$VERSION-linux-x64.mcpb" "$SCRATCH/mcpb" >/dev/null
# The server command of the bundle unpacked at $1, one word a line, as its manifest says
# (without `--path` and the folder, which mcp_roundtrip.py adds).
bundle_command() {
    "$PY" -c '
import json, sys
config = json.load(open(sys.argv[1] + "/manifest.json"))["server"]["mcp_config"]
for word in [config["command"]] + config["args"]:
    if word != "--path" and word != "${user_config.aios_folder}":
        print(word.replace("${__dirname}", sys.argv[1]))' "$1"
}
mapfile -t COMMAND < <(bundle_command "$SCRATCH/mcpb")
TOOLS=$("$PY" packaging/mcp_roundtrip.py "$AIOS" "${COMMAND[@]}") || fail "bundle MCP round trip"
log "ok: linux .mcpb bundle serves over stdio ($TOOLS)"

# --- Windows under Wine: the zip's binaries and the win32 bundle's server ----------------------
source scripts/wine/setup.sh
wine_setup "$TARGET_DIR"
WIN_NAME=dotaios-$VERSION-$WINDOWS_TARGET
unzip -q "$DIST/bin/$WIN_NAME.zip" -d "$SCRATCH/win"
WIN=$SCRATCH/win/$WIN_NAME
[ "$(wine "$WIN/dotaios.exe" --version | tr -d '\r')" = "$VERSION" ] || fail "zip: dotaios.exe --version"
wine "$WIN/dotaios.exe" mcp status --path "$(winepath -w "$AIOS")" >"$SCRATCH/status.txt" || {
    cat "$SCRATCH/status.txt" >&2
    fail "zip: dotaios.exe mcp status"
}
TOOLS=$(wine_mcp_roundtrip "$WIN/dotaios-mcp.exe" "$PY") || fail "zip: MCP round trip under Wine"
log "ok: $WIN_NAME.zip under Wine (--version, mcp status, MCP round trip: $TOOLS)"
mkdir -p "$SCRATCH/mcpb-win32"
"$TARGET_DIR/release-tools/npm/node_modules/.bin/mcpb" unpack \
    "$DIST/mcpb/dotaios-rs-$VERSION-win32-x64.mcpb" "$SCRATCH/mcpb-win32" >/dev/null
mapfile -t COMMAND < <(bundle_command "$SCRATCH/mcpb-win32")
[ ${#COMMAND[@]} -eq 1 ] || fail "win32 bundle command: ${COMMAND[*]}"
TOOLS=$(wine_mcp_roundtrip "${COMMAND[0]}" "$PY") || fail "win32 bundle MCP round trip under Wine"
log "ok: win32 .mcpb bundle serves over stdio under Wine ($TOOLS)"

# --- every artifact inspected, macOS ones included ---------------------------------------------
# The bundles must describe the tools as the installed adapter does (names and descriptions).
"$PY" packaging/mcp_roundtrip.py --tools-json "$AIOS" "$SCRATCH/venv/bin/dotaios-mcp" \
    >"$SCRATCH/tools.json" || fail "tools/list of the wheel's adapter"
"$PY" packaging/check_dist.py "$DIST" "$VERSION" "$SCRATCH/tools.json"
bash scripts/release-repeat.sh
log "ok: all artifacts checked in $(($(date +%s) - START)) s"
