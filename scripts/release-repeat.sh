#!/usr/bin/env bash
# Checks the claim that the Linux binaries repeat byte for byte (docs/releasing.md, "Cost and
# repeatability"): builds `dotaios` and `dotaios-mcp` a second time with scripts/release-linux.sh,
# from a copy of the checkout's files in another directory into another target directory (same
# pinned toolchain, same SOURCE_DATE_EPOCH), and compares them with the first build's. Run by
# scripts/release-check.sh after scripts/release.sh; runs on its own after one release.sh run.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET_DIR=$(realpath -m "${CARGO_TARGET_DIR:-target}")
FIRST=$TARGET_DIR/x86_64-unknown-linux-gnu/release
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 315532800)}
export SOURCE_DATE_EPOCH
START=$(date +%s)
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/dotaios-release-repeat.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT
fail() {
    echo "release-repeat: FAIL $*" >&2
    exit 1
}
for name in dotaios dotaios-mcp; do
    [ -x "$FIRST/$name" ] || fail "no first build at $FIRST/$name (run scripts/release.sh first)"
done
# The checkout's files (tracked, as they are in the work tree) at another path.
mkdir -p "$SCRATCH/src"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$SCRATCH/src"
(cd "$SCRATCH/src" && bash scripts/release-linux.sh "$TARGET_DIR/release-tools" \
    "$SCRATCH/target" "$SCRATCH/wheel")
SECOND=$SCRATCH/target/x86_64-unknown-linux-gnu/release
for name in dotaios dotaios-mcp; do
    first=$(sha256sum <"$FIRST/$name")
    second=$(sha256sum <"$SECOND/$name")
    [ "$first" = "$second" ] ||
        fail "$name differs between two builds: ${first%% *} and ${second%% *}"
    echo "release-repeat: ok: $name repeats byte for byte (${first%% *})" >&2
done
echo "release-repeat: second build and comparison took $(($(date +%s) - START)) s" >&2
