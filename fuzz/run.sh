#!/usr/bin/env bash
# Builds every fuzz target once, then runs each one for a while (docs/fuzzing.md).
#
#   fuzz/run.sh [seconds] [target ...]     default: 60 seconds, every target
#
# Needs cargo-fuzz (`cargo install cargo-fuzz --locked`). cargo-fuzz passes nightly-only
# flags (the sanitizer); RUSTC_BOOTSTRAP=1 lets the stable toolchain accept them, so no
# nightly toolchain is needed. New inputs go to fuzz/corpus/<target>, crashes (with the
# fuzzer's log) to fuzz/artifacts/<target> (both git-ignored); the committed seeds in
# fuzz/seeds/<target> are only read. Not part of the test suite: run it by hand.
set -euo pipefail

seconds="${1:-60}"
shift || true
cd "$(dirname "$0")"

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz --locked" >&2
    exit 2
fi
export RUSTC_BOOTSTRAP=1

# The folder-backed targets copy the sample folder below the temporary directory; give this
# run its own and remove it afterwards.
run_tmp="$(mktemp -d)"
trap 'rm -rf "$run_tmp"' EXIT

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

# Build once and run the binaries themselves: `cargo fuzz run` would rebuild before every
# target, picking up whatever the working tree holds by then.
cargo fuzz build
host="$(rustc -vV | sed -n 's/^host: //p')"
bin_dir="target/$host/release"

failed=()
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    log="$run_tmp/$target.log"
    echo "== $target: ${seconds}s"
    if TMPDIR="$run_tmp" "$bin_dir/$target" "corpus/$target" "seeds/$target" \
        -artifact_prefix="artifacts/$target/" -max_total_time="$seconds" -timeout=10 \
        -print_final_stats=1 >"$log" 2>&1; then
        result="ok"
    else
        result="CRASHED (input and fuzz.log in fuzz/artifacts/$target)"
        failed+=("$target")
        cp "$log" "artifacts/$target/fuzz.log"
        grep -m 1 -A 3 "panicked at" "$log" || tail -n 30 "$log"
    fi
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    echo "   $result, ${runs:-?} executions"
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "crashed: ${failed[*]}" >&2
    exit 1
fi
echo "all ${#targets[@]} targets ran ${seconds}s without a crash"
