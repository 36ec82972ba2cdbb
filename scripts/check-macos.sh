#!/usr/bin/env bash
# Type-checks the whole workspace, tests included, for both macOS targets (contract 01 §4.2:
# macOS is a supported platform).
#
# No macOS SDK or rustup macOS target is needed: Debian's `rustc-web`, `cargo-web` and
# `rust-web-src` (Rust with its library source) build the standard library for the target
# (`-Zbuild-std`, allowed on that stable compiler by `RUSTC_BOOTSTRAP=1`), and `cargo check`
# never links. The packages are installed with apt-get when missing (as root). The stable
# rustup toolchain stays the one for everything else; this uses its own target directory.
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_CARGO=/usr/bin/cargo
DEBIAN_RUSTC=/usr/bin/rustc

if ! dpkg -s rustc-web cargo-web rust-web-src >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "check-macos: install rustc-web cargo-web rust-web-src (apt-get, as root)" >&2
        exit 1
    fi
    # Another apt-get may hold the dpkg lock for a while; wait for it.
    apt-get update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq rustc-web cargo-web rust-web-src >/dev/null
fi

for target in aarch64-apple-darwin x86_64-apple-darwin; do
    echo "check-macos: $target" >&2
    RUSTC="$DEBIAN_RUSTC" RUSTC_BOOTSTRAP=1 "$DEBIAN_CARGO" check \
        -Zbuild-std=std,panic_abort --target "$target" \
        --workspace --all-targets --target-dir "${CARGO_TARGET_DIR:-target}/macos-check"
done
