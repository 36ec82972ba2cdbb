#!/usr/bin/env bash
# Builds the Linux (x86_64-unknown-linux-gnu) `dotaios` and `dotaios-mcp` and the manylinux
# wheel with maturin: the one build command that scripts/release.sh runs and that
# scripts/release-check.sh runs a second time, in another checkout and target directory, to check
# that the binaries repeat byte for byte (docs/releasing.md, "Cost and repeatability").
#
# Usage (from the checkout root): scripts/release-linux.sh <tools dir> <target dir> <wheel dir>
# where <tools dir> holds the pinned venv scripts/release.sh sets up.
#
# The bytes must not depend on where the checkout, the target directory or CARGO_HOME (the
# registry sources whose paths panic messages carry) lie: each is remapped to a fixed name. The
# target directory's remap comes last, so it wins when the target lies inside the checkout.
set -euo pipefail
TOOLS=$1
TARGET_DIR=$2
OUT=$3
ROOT=$PWD
CARGO_HOME_DIR=$(realpath -m "${CARGO_HOME:-$HOME/.cargo}")
for dir in "$ROOT" "$TARGET_DIR" "$CARGO_HOME_DIR"; do
    case $dir in
    *[[:space:]]*)
        echo "release: $dir contains a space, which RUSTFLAGS cannot carry" >&2
        exit 1
        ;;
    esac
done
export RUSTFLAGS="--remap-path-prefix=$CARGO_HOME_DIR=/cargo --remap-path-prefix=$ROOT=/src --remap-path-prefix=$TARGET_DIR=/target"
cp LICENSE-MIT LICENSE-APACHE packaging/pypi/
cd packaging/pypi
PATH="$TOOLS/venv/bin:$PATH" CARGO_TARGET_DIR="$TARGET_DIR" \
    maturin build --release --locked --zig --target x86_64-unknown-linux-gnu \
    --compatibility manylinux2014 --out "$OUT"
