#!/usr/bin/env bash
# Builds the workspace for x86_64-pc-windows-gnu and runs what Wine can run (docs/security.md,
# "Verified under Wine"): clippy for the Windows target, every crate's tests under Wine with a
# count per test binary, then an MCP round trip of the built dotaios-mcp.exe over examples/aios.
# Exits non-zero when anything fails; ends by printing `WINEPREFIX=<prefix>` on its own line.
#
# What it needs (mingw, Wine, the rustup target, a prefix with the ProcessPrng shim) comes from
# scripts/wine/setup.sh, which installs it when missing.
#
# Usage: scripts/test-windows.sh [-p PACKAGE]...   (default: every workspace package)
set -euo pipefail
cd "$(dirname "$0")/.."

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

source scripts/wine/setup.sh
wine_setup "$TARGET_DIR"

# insta finds the snapshots by the workspace path, which a Windows program must see as Z:\…;
# and a run under Wine never writes a `.snap.new`.
export INSTA_WORKSPACE_ROOT=$(winepath -w "$PWD" 2>/dev/null)
export INSTA_UPDATE=no

cargo clippy --workspace --all-targets --target "$WINDOWS_TARGET" -- -D warnings
# Integration tests of the CLI and the benchmark start the other binaries.
cargo build --workspace --bins --target "$WINDOWS_TARGET"

# True when the log of a failed `cargo test` run shows failed tests and every one of them failed
# with Wine's process-creation error 1359 (see its use below). A test reports it either through
# `{:?}` (`Os { code: 1359, … }`) or through `{}` (`Internal error. (os error 1359)`).
wine_spawn_flake() {
  awk '
    /^---- .* stdout ----$/ { if (name != "") { total++; if (flake) flaky++ } name = $2; flake = 0; next }
    /^failures:$/ && name != "" { total++; if (flake) flaky++; name = "" }
    /code: 1359|os error 1359/ { flake = 1 }
    END { if (name != "") { total++; if (flake) flaky++ } exit !(total > 0 && flaky == total) }
  ' "$1"
}

summary=()
failed=0
for package in "${packages[@]}"; do
  log=$TARGET_DIR/test-windows-$package.log
  echo "test-windows: cargo test -p $package under Wine" >&2
  if cargo test -p "$package" --target "$WINDOWS_TARGET" --no-fail-fast >"$log" 2>&1; then
    status=ok
  elif wine_spawn_flake "$log"; then
    # Wine at times fails to start a child process with ERROR_INTERNAL_ERROR (Windows error
    # 1359, `Os { code: 1359, … "Internal error." }`) under load, in a test that passes on the
    # next run (issue 39 item 16). Only when every failed test shows that error are exactly
    # those tests run once more; any other failure fails the step at once.
    mapfile -t again < <(grep -E '^test .* \.\.\. FAILED$' "$log" | sed -E 's/^test (.*) \.\.\. FAILED$/\1/' | sort -u)
    echo "test-windows: $package: ${#again[@]} test(s) failed with Wine's spawn error 1359; running them once more" >&2
    if cargo test -p "$package" --target "$WINDOWS_TARGET" --no-fail-fast -- --exact "${again[@]}" >"$log.retry" 2>&1; then
      status=ok
    else
      status=FAILED
      failed=1
      log=$log.retry
    fi
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
  if [ "$status" != ok ]; then
    echo "test-windows: $package failed; its log: $log" >&2
    grep -E "^test .* FAILED$" "$log" | head -40 >&2 || true
    # What each failed test printed (its panic message), so that CI output says why.
    awk '/^---- .* stdout ----$/ { show = 1 } /^failures:$/ && show { exit } show' "$log" | head -200 >&2 || true
  fi
done

echo "test-windows: counts per test binary" >&2
printf '  %s\n' "${summary[@]}" >&2

# The whole product: the built adapter serves examples/aios to a real stdio client.
wine_mcp_roundtrip "$TARGET_DIR/$WINDOWS_TARGET/debug/dotaios-mcp.exe" ||
  { echo "test-windows: the MCP round trip under Wine failed" >&2; failed=1; }

echo "WINEPREFIX=$WINEPREFIX"
exit "$failed"
