#!/usr/bin/env bash
# Builds the Linux (x86_64-unknown-linux-gnu) `dotaios` and `dotaios-mcp` and the manylinux
# wheel with maturin: the one build command that scripts/release.sh runs and that
# scripts/release-check.sh runs a second time, in another checkout and target directory, to check
# that the binaries repeat byte for byte (docs/releasing.md, "Cost and repeatability").
#
# Usage (from the checkout root): scripts/release-linux.sh <tools dir> <target dir> <wheel dir>
# where <tools dir> holds the pinned venv scripts/release.sh sets up.
#
# The bytes must not depend on where the checkout, the target directory or CARGO_HOME lie: the
# path remaps of scripts/release-flags.sh.
set -euo pipefail
TOOLS=$1
TARGET_DIR=$2
OUT=$3
ROOT=$PWD
source scripts/release-flags.sh
RUSTFLAGS=$(release_rustflags "$ROOT" "$TARGET_DIR")
export RUSTFLAGS
cp LICENSE-MIT LICENSE-APACHE packaging/pypi/
cd packaging/pypi
PATH="$TOOLS/venv/bin:$PATH" CARGO_TARGET_DIR="$TARGET_DIR" \
    maturin build --release --locked --zig --target x86_64-unknown-linux-gnu \
    --compatibility manylinux2014 --out "$OUT"
