# Sourced by scripts/test-windows.sh and scripts/release-check.sh: everything that builds for
# x86_64-pc-windows-gnu and runs the result under Wine (scripts/release.sh uses the first half).
# `windows_build_setup` installs the linker from Debian when missing (gcc-mingw-w64-x86-64), adds
# the rustup target and exports cargo's linker. `wine_setup <target dir>` does that, installs
# wine and wine64 (8.0) when missing, exports cargo's runner and the Wine variables, and prepares
# a Wine prefix under <target dir> (never anywhere else) with the test-only bcryptprimitives.dll
# shim:
# Wine 8.0 lacks it, and every Rust >= 1.78 executable imports its ProcessPrng, which the shim
# forwards to RtlGenRandom. `wine_mcp_roundtrip <exe> [python]` runs a Windows dotaios-mcp
# under Wine for the MCP round trip of packaging/mcp_roundtrip.py over examples/aios. Must be
# sourced from the checkout root.

WINDOWS_TARGET=x86_64-pc-windows-gnu

# Installs the Debian packages named whose command ($1 of each pair) is missing.
apt_install_missing() {
  local missing=() sudo=""
  while [ $# -gt 0 ]; do
    command -v "$1" >/dev/null || missing+=($2)
    shift 2
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    "${missing[@]}" >/dev/null
}

windows_build_setup() {
  apt_install_missing x86_64-w64-mingw32-gcc gcc-mingw-w64-x86-64
  rustup target list --installed | grep -qx "$WINDOWS_TARGET" || rustup target add "$WINDOWS_TARGET"
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
}

wine_setup() {
  local target_dir=$1
  windows_build_setup
  apt_install_missing wine "wine wine64"
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
  export WINEPREFIX=$target_dir/wine-prefix
  export WINEDEBUG=-all
  export WINEARCH=win64
  export WINEDLLOVERRIDES="bcryptprimitives=n;mscoree,mshtml="

  local shim=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
  if [ ! -f "$shim" ]; then
    echo "wine: preparing the Wine prefix $WINEPREFIX" >&2
    mkdir -p "$WINEPREFIX"
    wineboot -i >/dev/null 2>&1
    wineserver -w
    x86_64-w64-mingw32-gcc -shared -O2 -o "$shim.tmp" \
      scripts/wine/bcryptprimitives.c scripts/wine/bcryptprimitives.def -ladvapi32
    mv "$shim.tmp" "$shim"
  fi
}

# The whole product: the Windows adapter $1 serves examples/aios (named as Windows sees it) to a
# real stdio client, run by python $2 (default python3); prints the tools it listed.
wine_mcp_roundtrip() {
  local exe=$1 python=${2:-python3} folder
  folder=$(winepath -w "$PWD/examples/aios")
  "$python" packaging/mcp_roundtrip.py "$folder" wine "$exe"
}
