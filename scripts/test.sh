#!/usr/bin/env bash
# Runs the whole dotaios test suite: every Rust test in the workspace, then the tests that drive
# the adapter through clients we did not write (Python's `mcp` package; the TypeScript SDKs
# and the MCP Inspector CLI), when present.
# Needs only cargo, python3 (with venv/pip) and node/npm on PATH; installs the Python test
# dependencies into .venv/ on first use and the Node ones into tests/node/node_modules/.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --workspace --bins
cargo test --workspace --all-targets
cargo test --workspace --doc

if [ -f tests/python/requirements.txt ]; then
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
  fi
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/python/requirements.txt
  .venv/bin/python -m pytest -q tests/python
fi

if [ -f tests/node/package.json ]; then
  (cd tests/node && npm ci --no-audit --no-fund --silent)
  (cd tests/node && node --test --test-reporter=tap)
fi

# Release evidence from real AI hosts (docs/compatibility.md): the pinned clients of
# tests/hosts/package-lock.json, offline, against a scripted model endpoint on loopback.
bash scripts/test-hosts.sh
