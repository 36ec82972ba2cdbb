#!/usr/bin/env bash
# Builds the workspace for x86_64-pc-windows-gnu and runs what Wine can run (docs/security.md,
# "Verified under Wine"): clippy for the Windows target, every crate's tests under Wine with a
# count per test binary, then an MCP round trip of the built dotaios-mcp.exe over examples/aios.
# Exits non-zero when anything fails; ends by printing `WINEPREFIX=<prefix>` on its own line.
#
# Needs, and installs from Debian when missing: gcc-mingw-w64-x86-64 (the linker) and wine,
# wine64 (8.0). The Rust target comes from rustup (`rustup target add`). Wine 8.0 lacks
# bcryptprimitives.dll, which every Rust >= 1.78 executable imports for its random bytes; the
# test-only shim in scripts/wine/ forwards ProcessPrng to RtlGenRandom and is installed into a
# Wine prefix under the target directory, never anywhere else.
#
# Usage: scripts/test-windows.sh [-p PACKAGE]...   (default: every workspace package)
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=x86_64-pc-windows-gnu
TARGET_DIR=$(realpath -m "${CARGO_TARGET_DIR:-target}")
export CARGO_TARGET_DIR=$TARGET_DIR

packages=()
while [ $# -gt 0 ]; do
  case $1 in
    -p) packages+=("$2"); shift 2 ;;
    *) echo "test-windows: unknown argument: $1" >&2; exit 2 ;;
  esac
done
if [ ${#packages[@]} -eq 0 ]; then
  packages=(dotaios-contained dotaios-testkit dotaios-core dotaios-mcp dotaios dotaios-bench)
fi

missing=()
command -v x86_64-w64-mingw32-gcc >/dev/null || missing+=(gcc-mingw-w64-x86-64)
command -v wine >/dev/null || missing+=(wine wine64)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
rustup target list --installed | grep -qx "$TARGET" || rustup target add "$TARGET"

export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
export WINEPREFIX=$TARGET_DIR/wine-prefix
export WINEDEBUG=-all
export WINEARCH=win64
export WINEDLLOVERRIDES="bcryptprimitives=n;mscoree,mshtml="

shim=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -f "$shim" ]; then
  echo "test-windows: preparing the Wine prefix $WINEPREFIX" >&2
  mkdir -p "$WINEPREFIX"
  wineboot -i >/dev/null 2>&1
  wineserver -w
  x86_64-w64-mingw32-gcc -shared -O2 -o "$shim.tmp" \
    scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
  mv "$shim.tmp" "$shim"
fi

# insta finds the snapshots by the workspace path, which a Windows program must see as Z:\…;
# and a run under Wine never writes a `.snap.new`.
export INSTA_WORKSPACE_ROOT=$(winepath -w "$PWD" 2>/dev/null)
export INSTA_UPDATE=no

cargo clippy --workspace --all-targets --target "$TARGET" -- -D warnings
# Integration tests of the CLI and the benchmark start the other binaries.
cargo build --workspace --bins --target "$TARGET"

summary=()
failed=0
for package in "${packages[@]}"; do
  log=$TARGET_DIR/test-windows-$package.log
  echo "test-windows: cargo test -p $package under Wine" >&2
  if cargo test -p "$package" --target "$TARGET" --no-fail-fast >"$log" 2>&1; then
    status=ok
  else
    status=FAILED
    failed=1
  fi
  # One row per test binary: its name (the `Running` line) and the libtest result line.
  while IFS= read -r row; do summary+=("$package $row"); done < <(awk '
    /^ *Running / { name = $2; sub(/^.*[\/\\]deps[\/\\]/, "", name); sub(/-[0-9a-f]+\.exe$/, "", name); sub(/-[0-9a-f]+\.exe\)$/, "", name) }
    /^ *Doc-tests / { name = "doctests " $2 }
    /^test result:/ { sub(/;? *finished in.*$/, ""); print name ": " $0 }
  ' "$log")
  [ "$status" = ok ] || { echo "test-windows: $package failed; its log: $log" >&2; grep -E "^test .* FAILED$|^failures:$" "$log" | head -40 >&2 || true; }
done

echo "test-windows: counts per test binary" >&2
printf '  %s\n' "${summary[@]}" >&2

# The whole product: the built adapter serves examples/aios to a real stdio client.
folder=$(winepath -w "$PWD/examples/aios")
python3 packaging/mcp_roundtrip.py "$folder" wine "$TARGET_DIR/$TARGET/debug/dotaios-mcp.exe" ||
  { echo "test-windows: the MCP round trip under Wine failed" >&2; failed=1; }

echo "WINEPREFIX=$WINEPREFIX"
exit "$failed"
