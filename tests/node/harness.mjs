// Shared fixture for the real-client tests (contract 05 §13): a fresh AIOS folder, a launcher that
// records what crosses the adapter's stdio and its exit status, and the expectations every
// client shares. It only spawns processes and reads the files it created; it never talks
// JSON-RPC itself, so each test's verdict comes from the client under test.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = resolve(HERE, '..', '..');

/** Cargo's target directory for this workspace (`cargo metadata`, so CARGO_TARGET_DIR is
 * honoured); `<root>/target` when cargo cannot say. */
function targetDirectory() {
  try {
    const metadata = execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return JSON.parse(metadata).target_directory;
  } catch {
    return join(ROOT, 'target');
  }
}

function binary(variable, name) {
  return process.env[variable] || join(targetDirectory(), 'debug', name);
}

export const ADAPTER = binary('DOTAIOS_MCP_BIN', 'dotaios-mcp');
const CLI = binary('DOTAIOS_BIN', 'dotaios');

export const TOOL_NAMES = ['read_working_context', 'search_aios', 'resolve_skill'];
export const ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';
const PV = 'io.modelcontextprotocol/protocolVersion';

// `$$` is the wrapper shell's pid, so every spawn (an `auto` probe runs on a sibling process)
// gets its own transcript. `.rc` is the adapter's own exit status, written by the inner group;
// `.status` appears only after both `tee`s have finished, so once it exists the transcript is
// complete. The v2 SDK reaps its discover-probe sibling with SIGTERM, which kills the outer shell
// before the rename: such a session keeps only `.rc` and is reported as `reaped`.
const RECORDER = [
  '{ tee -a "$3/$$.in" | "$1" --path "$2"; echo $? > "$3/$$.rc"; } | tee -a "$3/$$.out"',
  'mv "$3/$$.rc" "$3/$$.status"',
  '',
].join('\n');

/** A temporary directory holding a freshly initialised AIOS folder and an empty wire log. */
export function makeFixture(t) {
  for (const path of [ADAPTER, CLI]) {
    assert.ok(
      existsSync(path),
      `${path} not found: run \`cargo build --workspace --bins\`, or set DOTAIOS_MCP_BIN and DOTAIOS_BIN`,
    );
  }
  const root = mkdtempSync(join(tmpdir(), 'dotaios-node-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const aios = join(root, 'aios');
  execFileSync(CLI, ['init', '--yes', '--path', aios], { stdio: 'ignore' });
  const wire = join(root, 'wire');
  mkdirSync(wire);
  const home = join(root, 'home');
  mkdirSync(home);
  const recorder = join(root, 'recorder.sh');
  writeFileSync(recorder, RECORDER);
  return { root, aios, wire, home, recorder };
}

/** The same fixture with a new, empty wire log (one per client run). */
export function freshWire(fixture, name) {
  const wire = join(fixture.root, name);
  mkdirSync(wire);
  return { ...fixture, wire };
}

/** Command and arguments that launch the adapter behind the recorder. */
export function launcher({ aios, wire, recorder }) {
  return { command: 'sh', args: [recorder, ADAPTER, aios, wire] };
}

function jsonLines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/**
 * Every adapter process the client started, after all of them have exited: what the client
 * sent, what the adapter answered, and the adapter's exit status. Waits up to five seconds,
 * because a client may resolve `close()` a moment before the wrapper shell is done.
 */
export async function sessions({ wire }) {
  const file = (pid, ext) => join(wire, `${pid}.${ext}`);
  const pids = () => [...new Set(readdirSync(wire).map((name) => name.split('.')[0]))];
  const finished = (pid) => existsSync(file(pid, 'status'));
  const done = (pid) => finished(pid) || existsSync(file(pid, 'rc'));
  for (let i = 0; i < 100 && !pids().every(done); i += 1) await sleep(50);
  // `.rc` precedes the rename by a moment; only a shell that stays without `.status` was reaped.
  if (!pids().every(finished)) await sleep(300);
  return pids()
    .sort((a, b) => Number(a) - Number(b))
    .map((pid) => {
      const reaped = !existsSync(file(pid, 'status'));
      const statusFile = reaped ? file(pid, 'rc') : file(pid, 'status');
      return {
        pid,
        reaped,
        status: existsSync(statusFile) ? readFileSync(statusFile, 'utf8').trim() : 'never exited',
        sent: jsonLines(file(pid, 'in')),
        received: jsonLines(file(pid, 'out')),
      };
    });
}

/** Every adapter process exited with status 0 (a reaped probe's shell aside, see RECORDER). */
export function assertCleanExits(all) {
  assert.ok(all.length > 0, 'the client never started the adapter');
  for (const session of all) {
    assert.equal(session.status, '0', `adapter ${session.pid} exit status`);
  }
}

/** The response to the request with `method` in one session (the first such request). */
function exchange(session, method) {
  const request = session.sent.find((message) => message.method === method && 'id' in message);
  if (!request) return undefined;
  const response = session.received.find((message) => message.id === request.id);
  return { request, response };
}

/**
 * The version a session actually ran at, read from the wire: a legacy session's `initialize`
 * answer, or the `_meta` protocol version its `tools/list` carried when no `initialize` was sent.
 */
export function wireVersion(session) {
  const init = exchange(session, 'initialize');
  if (init) {
    assert.ok(init.response?.result, 'initialize was answered with a result');
    return { era: 'legacy', version: init.response.result.protocolVersion };
  }
  const list = exchange(session, 'tools/list');
  assert.ok(list, 'the session sent tools/list');
  assert.equal(list.response?.result?.resultType, 'complete', 'modern tools/list result shape');
  return { era: 'modern', version: list.request.params?._meta?.[PV] };
}

/** The session that did the work: the one that sent tools/list (not a discover-only probe). */
export function workSession(all) {
  const working = all.filter((session) => exchange(session, 'tools/list'));
  assert.equal(working.length, 1, 'exactly one adapter process served the tool requests');
  assert.equal(working[0].reaped, false, 'the working session ended by the client closing stdin');
  return working[0];
}

/** Only probes (`server/discover`, nothing else) may accompany the working session. */
export function assertOnlyProbesBesides(all, work) {
  for (const session of all) {
    if (session === work) continue;
    assert.deepEqual(
      session.sent.map((message) => message.method),
      ['server/discover'],
      `adapter ${session.pid} was a discover probe`,
    );
    const answer = exchange(session, 'server/discover').response?.result;
    assert.equal(answer?.resultType, 'complete', 'the probe was answered');
    assert.ok(answer.supportedVersions.includes(MODERN_VERSION));
  }
}

/** The JSON-RPC error the adapter sent for the first `tools/call` of `name`. */
export function wireToolError(session, name) {
  const call = session.sent.find(
    (message) => message.method === 'tools/call' && message.params?.name === name,
  );
  if (!call) return undefined;
  return session.received.find((message) => message.id === call.id)?.error;
}

export const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/**
 * The three tools, in order, each with exactly the read-only annotations. Every client here
 * lands in a structured era (contract 05 §3.4), so each tool has an output schema and a
 * description for every input property.
 */
export function assertTools(tools) {
  assert.deepEqual(
    tools.map((tool) => tool.name),
    TOOL_NAMES,
  );
  for (const tool of tools) {
    assert.deepEqual(tool.annotations, ANNOTATIONS, `${tool.name} annotations`);
    assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an outputSchema`);
    for (const [name, property] of Object.entries(tool.inputSchema.properties)) {
      assert.equal(typeof property.description, 'string', `${tool.name}.${name} is described`);
    }
  }
}

/**
 * The payload of a successful tool result: one text block holding JSON, the same value as
 * `structuredContent`, and the serverInfo `_meta`.
 */
export function payload(result) {
  assert.equal(result.isError, false);
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  const value = JSON.parse(result.content[0].text);
  assert.deepEqual(result.structuredContent, value);
  assert.equal(result._meta?.[SERVER_INFO]?.name, 'dotaios-mcp');
  return value;
}

/** An input error as the model sees it (contract 05 §6.11): an `isError` result whose only
 * content is the message. */
export function assertInputError(result, message) {
  assert.equal(result.isError, true);
  assert.deepEqual(result.content, [{ type: 'text', text: message }]);
  assert.equal(result.structuredContent, undefined);
}

/** A `read_working_context` call with `memory: "off"` succeeded with the Off receipt. */
export function assertOff(result) {
  const off = payload(result);
  assert.equal(off.memory, 'off');
  assert.equal(off.receipt, 'Memory: Off');
  assert.match(off.notice, /AI app may still keep its own conversation history/i);
  return off;
}

/**
 * The calls every SDK client makes on a fresh folder, through the SDK's own `listTools` and
 * `callTool` (which validate structured content against the output schema): the three tools,
 * Off, a search, a skill, an unknown tool (refused with -32602) and two bad arguments (tool
 * results with `isError`). Returns the search payload for era-specific checks.
 */
export async function exerciseTools(client) {
  assertTools((await client.listTools()).tools);

  assertOff(await client.callTool({ name: 'read_working_context', arguments: { memory: 'off' } }));

  const found = payload(await client.callTool({ name: 'search_aios', arguments: { query: 'plan my day' } }));
  assert.equal(found.receipt, 'Memory: Shared');

  const skill = payload(await client.callTool({ name: 'resolve_skill', arguments: { intent: 'plan my day' } }));
  assert.equal(skill.matches[0].name, 'plan-today');

  await assert.rejects(client.callTool({ name: 'log_event', arguments: {} }), (error) => {
    assert.equal(error.code, -32602);
    assert.match(error.message, /Unknown tool: log_event/);
    return true;
  });
  assertInputError(
    await client.callTool({ name: 'search_aios', arguments: { query: 'x', bogus: 1 } }),
    'Unknown tool argument',
  );
  assertInputError(
    await client.callTool({ name: 'read_working_context', arguments: { budget: 20 } }),
    'budget must be an integer from 256 to 32000',
  );
  return found;
}
