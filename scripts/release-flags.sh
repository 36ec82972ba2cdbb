# Sourced by scripts/release-linux.sh and scripts/release.sh: the RUSTFLAGS every release build
# uses so that its bytes do not depend on where the checkout, the target directory or CARGO_HOME
# (the registry sources whose paths panic messages carry) lie (docs/releasing.md, "Cost and
# repeatability"). Each is remapped to a fixed name; the target directory's remap comes last, so
# it wins when the target lies inside the checkout.

# Prints the flags for checkout $1 and target directory $2; fails when a path holds a space,
# which RUSTFLAGS cannot carry.
release_rustflags() {
    local root=$1 target_dir=$2 cargo_home
    cargo_home=$(realpath -m "${CARGO_HOME:-$HOME/.cargo}")
    for dir in "$root" "$target_dir" "$cargo_home"; do
        case $dir in
        *[[:space:]]*)
            echo "release: $dir contains a space, which RUSTFLAGS cannot carry" >&2
            return 1
            ;;
        esac
    done
    echo "--remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$root=/src --remap-path-prefix=$target_dir=/target"
}
