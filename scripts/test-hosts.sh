#!/usr/bin/env bash
# Release evidence from real AI hosts (docs/compatibility.md): runs the five pinned hosts of
# tests/hosts/package-lock.json one after another against a scripted model endpoint on
# 127.0.0.1, each wired with exactly the fragment `dotaios mcp install --dry-run --agent X`
# prints, and prints one line per host with the level it reached and its version. Then a
# negative control: the adapter pointed at a copy of examples/aios without the marker must not
# reach "produced". With Claude Code among the hosts, a second scenario follows a skill over MCP
# alone (contract 05 §7.7): resolve_skill, then Claude Code's own resource reader on the `uri`
# the match names, then an answer with a token only that skill's body holds (the skill of
# tests/hosts/fixture, added to a copy of examples/aios), with its own negative control (the
# same skill without the token). Exit 0 only if every host run reaches "produced" and no
# control does.
#
#   bash scripts/test-hosts.sh [--host NAME]... [--write-docs]
#
# --host runs only the named hosts (claude, gemini, codex, opencode, kimi; repeatable), and
# their controls. --write-docs regenerates docs/compatibility.md from this run, keeping the rows
# of hosts not run (then rebuild dotaios: `mcp install` compiles its `Evidence:` line from it).
#
# Needs cargo, python3, node and npm; installs the pinned hosts with `npm ci` into
# tests/hosts/node_modules (about 1.3 GB) when the lock file changed. Each host is bounded to
# 120 s, runs in a sandbox of its own (fresh HOME and XDG_* directories, an environment built
# from nothing, npm registry and proxies on a dead loopback port) and, where the kernel allows
# unprivileged namespaces, in a network namespace holding only loopback and a PID namespace
# whose processes all die with the run.
set -euo pipefail
cd "$(dirname "$0")/.."

all_hosts=(claude gemini codex opencode kimi)
write_docs=0
hosts=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --write-docs) write_docs=1 ;;
    --host)
      [ "$#" -ge 2 ] || { echo "--host needs a host name" >&2; exit 1; }
      case " ${all_hosts[*]} " in
        *" $2 "*) hosts+=("$2") ;;
        *) echo "Unknown host: $2. Use ${all_hosts[*]}." >&2; exit 1 ;;
      esac
      shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "Unknown option: $1" >&2; exit 1 ;;
  esac
  shift
done
[ "${#hosts[@]}" -gt 0 ] || hosts=("${all_hosts[@]}")

for tool in cargo python3 node npm; do
  command -v "$tool" >/dev/null || { echo "test-hosts: $tool is required" >&2; exit 1; }
done

# The content the host must bring back: the query matches one line of examples/aios, and the
# marker is a part of that line the query does not contain (so echoing the prompt proves nothing).
query="nodal corrections"
marker="37 constituents"
marker_file="examples/aios/references/tide-harmonics-primer.md"
host_timeout=120
# The negative control runs with these hosts (when they are among the hosts run).
control_hosts=(claude kimi)

# The dotaios package builds both binaries (dotaios and dotaios-mcp).
cargo build --quiet -p dotaios --bins
target_dir="$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
bin_dir="$(cd "$target_dir/debug" && pwd)"
# The endpoint and the runner first (the runner with stand-in hosts that hang or escape).
unit="$(DOTAIOS_BIN_DIR="$bin_dir" python3 -m unittest discover -s tests/hosts -p 'test_*.py' 2>&1)" \
  || { echo "$unit" >&2; exit 1; }
echo "test-hosts: endpoint and runner unit tests: $(tail -n 1 <<<"$unit")"
out_dir="$target_dir/hosts"
rm -rf "$out_dir"
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"

# Install the pinned hosts only when the lock file differs from the one last installed.
stamp=tests/hosts/node_modules/.dotaios-installed-lock
if ! cmp -s tests/hosts/package-lock.json "$stamp" 2>/dev/null; then
  started=$(date +%s)
  (cd tests/hosts && npm ci --no-audit --no-fund --silent)
  cp tests/hosts/package-lock.json "$stamp"
  echo "test-hosts: npm ci of the pinned hosts took $(( $(date +%s) - started )) s ($(du -sh tests/hosts/node_modules | cut -f1))"
fi

scratch="$(mktemp -d "${TMPDIR:-/tmp}/dotaios-hosts.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
positive="$(pwd)/examples/aios"
negative="$scratch/aios-without-marker"
cp -R examples/aios "$negative"
grep -v -F "$marker" "$marker_file" > "$negative/${marker_file#examples/aios/}"
grep -q -F "$marker" "$marker_file" || { echo "test-hosts: $marker_file lost the marker" >&2; exit 1; }
if grep -r -q -F "$marker" "$negative"; then
  echo "test-hosts: the negative folder still holds the marker" >&2
  exit 1
fi

# A network namespace with only loopback, and a PID namespace that takes every process of the
# run with it, where unprivileged user namespaces are allowed (Linux); elsewhere the sandbox's
# environment alone keeps traffic on loopback and run_host.py reaps what it started.
# DOTAIOS_HOSTS_ISOLATION=env forces the environment-only mode (to try what CI without user
# namespaces does).
isolate=()
isolation="environment only"
if [ "${DOTAIOS_HOSTS_ISOLATION:-}" != env ] && command -v unshare >/dev/null \
  && command -v ip >/dev/null \
  && unshare --user --map-root-user --net --pid --fork --mount-proc --kill-child \
    ip link set lo up >/dev/null 2>&1; then
  isolate=(unshare --user --map-root-user --net --pid --fork --mount-proc --kill-child
    sh -c 'ip link set lo up && exec "$@"' sh)
  isolation="loopback-only network namespace"
  # The claim checked: from inside, an address off the machine is unreachable.
  if "${isolate[@]}" python3 -c 'import socket; socket.create_connection(("192.0.2.1", 443), timeout=3)' \
    >/dev/null 2>&1; then
    echo "test-hosts: the network namespace reaches off loopback" >&2
    exit 1
  fi
fi
echo "test-hosts: isolation: $isolation"

# The outer bound; run_host.py also stops its host 10 s before it (macOS has no `timeout`).
bound=()
if command -v timeout >/dev/null; then
  bound=(timeout -k 5 "$host_timeout")
fi

results="$out_dir/results.jsonl"
: > "$results"

# Runs one host; appends its JSON line to $3 and prints the human line. Optional $4 $5 $6: the
# query (or intent), the marker (or token) and the scenario, instead of the search defaults.
run_host() {
  local host="$1" folder="$2" sink="$3" line
  local ask="${4:-$query}" expect="${5:-$marker}" scenario="${6:-search}"
  line="$("${bound[@]}" "${isolate[@]}" python3 tests/hosts/run_host.py \
    --host "$host" --dotaios "$bin_dir/dotaios" --launcher "$bin_dir/dotaios-mcp" \
    --folder "$folder" --bins "$(pwd)/tests/hosts/node_modules/.bin" \
    --query "$ask" --marker "$expect" --scenario "$scenario" --timeout $(( host_timeout - 10 )) \
    --log-dir "$out_dir/$(basename "$sink" .jsonl)" | tail -n 1)" || true
  if [ -z "$line" ]; then
    line="{\"host\":\"$host\",\"level\":\"none\",\"version\":null,\"detail\":\"no result within ${host_timeout} s\"}"
  fi
  printf '%s\n' "$line" >> "$sink"
  python3 tests/hosts/compat_doc.py --line "$line"
}

for host in "${hosts[@]}"; do
  run_host "$host" "$positive" "$results"
done

control="$out_dir/control.jsonl"
: > "$control"
controls=()
for host in "${control_hosts[@]}"; do
  case " ${hosts[*]} " in *" $host "*) controls+=("$host") ;; esac
done
# A run of hosts none of which has a control still gets one, with the first host run.
[ "${#controls[@]}" -gt 0 ] || controls=("${hosts[0]}")
echo "test-hosts: negative control (${controls[*]}, folder without the marker):"
for host in "${controls[@]}"; do
  run_host "$host" "$negative" "$control"
done

status=0
python3 tests/hosts/compat_doc.py --check "$results" --control "$control" --hosts "${hosts[@]}" \
  || status=1

# Following a skill over MCP alone (issue 38): Claude Code only, whose model reads MCP resources
# through its own ReadMcpResourceTool. The token is in the skill's body, and the endpoint counts
# it only in the resource read's result (resolve_skill's answer carries the start of the body
# too, contract 05 §7.7; that copy is not counted).
case " ${hosts[*]} " in
  *" claude "*)
    skill_dir=tests/hosts/fixture/skills/tide-gauge-calibration
    skill_intent="calibrate the tide gauge"
    skill_token="HERON-SEXTANT-5813"
    with_skill="$scratch/aios-with-skill"
    without_token="$scratch/aios-skill-without-token"
    cp -R examples/aios "$with_skill"
    cp -R "$skill_dir" "$with_skill/skills/"
    cp -R examples/aios "$without_token"
    mkdir -p "$without_token/skills/${skill_dir##*/}"
    grep -v -F "$skill_token" "$skill_dir/SKILL.md" > "$without_token/skills/${skill_dir##*/}/SKILL.md"
    # The token: exactly once in the positive folder, below the frontmatter; nowhere in the control.
    [ "$(grep -r -F -c "$skill_token" "$with_skill" | awk -F: '{n += $NF} END {print n}')" = 1 ] \
      || { echo "test-hosts: the skill token must be in the positive folder exactly once" >&2; exit 1; }
    awk -v token="$skill_token" '/^---$/ {fences++} index($0, token) && fences < 2 {bad = 1} END {exit bad}' \
      "$skill_dir/SKILL.md" || { echo "test-hosts: the skill token is in the frontmatter" >&2; exit 1; }
    if grep -r -q -F "$skill_token" "$without_token"; then
      echo "test-hosts: the skill control folder still holds the token" >&2
      exit 1
    fi
    skill_results="$out_dir/skill.jsonl"
    skill_control="$out_dir/skill-control.jsonl"
    : > "$skill_results"
    : > "$skill_control"
    echo "test-hosts: skill scenario (claude resolves '$skill_intent', reads the resource, answers its token):"
    run_host claude "$with_skill" "$skill_results" "$skill_intent" "$skill_token" skill
    echo "test-hosts: skill scenario negative control (claude, the skill without its token):"
    run_host claude "$without_token" "$skill_control" "$skill_intent" "$skill_token" skill
    python3 tests/hosts/compat_doc.py --check "$skill_results" --control "$skill_control" --hosts claude \
      || status=1
    ;;
esac
if [ "$write_docs" = 1 ]; then
  python3 tests/hosts/compat_doc.py --write docs/compatibility.md "$results"
  echo "test-hosts: wrote docs/compatibility.md"
fi
exit "$status"
