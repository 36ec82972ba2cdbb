// The adapter driven by the MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`) in each
// protocol era it offers (contract 05 §13, contract 05 §14 item 62). The Inspector runs as a
// subprocess through `npx --no-install`, which puts this package's `node_modules/.bin` first on
// PATH, so its `node` is the Node 22 this package installs where the system Node is older.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

import {
  assertCleanExits,
  assertOff,
  assertTools,
  freshWire,
  HERE,
  launcher,
  LEGACY_VERSION,
  makeFixture,
  MODERN_VERSION,
  payload,
  sessions,
  wireToolError,
  wireVersion,
  workSession,
} from './harness.mjs';

const run = promisify(execFile);

// The Inspector 2.12 declares `engines.node >= 22.19.0`.
const MINIMUM_NODE = [22, 19, 0];

const ERAS = [
  { era: 'legacy', wire: 'legacy', version: LEGACY_VERSION },
  { era: 'auto', wire: 'modern', version: MODERN_VERSION },
  { era: 'modern', wire: 'modern', version: MODERN_VERSION },
];

function npx(args, home) {
  const env = { ...process.env, HOME: home, npm_config_update_notifier: 'false' };
  return run('npx', ['--no-install', ...args], { cwd: HERE, env, maxBuffer: 16 << 20 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error) => {
      if (typeof error.code !== 'number') throw error;
      return { code: error.code, stdout: error.stdout, stderr: error.stderr };
    },
  );
}

/** One Inspector CLI invocation against a fresh wire log; returns its outcome and the sessions. */
async function inspect(fixture, era, name, args) {
  const target = freshWire(fixture, `wire-${era}-${name}`);
  const { command, args: launch } = launcher(target);
  const outcome = await npx(
    ['inspector', '--cli', '--format', 'json', '-q', '--protocol-era', era, command, ...launch, ...args],
    fixture.home,
  );
  return { ...outcome, sessions: await sessions(target) };
}

/** The negotiated version as seen on the wire, and every adapter process exited 0 by itself. */
function assertRun(run, eraWire, version) {
  assertCleanExits(run.sessions);
  assert.equal(run.sessions.length, 1, 'the Inspector probes in place: one adapter process');
  const work = workSession(run.sessions);
  assert.deepEqual(wireVersion(work), { era: eraWire, version });
  return work;
}

test('the Inspector gets a Node it supports', async (t) => {
  const fixture = makeFixture(t);
  const { code, stdout } = await npx(['node', '--version'], fixture.home);
  assert.equal(code, 0);
  const have = stdout.trim().replace(/^v/, '').split('.').map(Number);
  const ok = have[0] !== MINIMUM_NODE[0] ? have[0] > MINIMUM_NODE[0] : have[1] >= MINIMUM_NODE[1];
  assert.ok(ok, `Inspector needs Node >= ${MINIMUM_NODE.join('.')}, npx offers ${stdout.trim()}`);
});

for (const { era, wire, version } of ERAS) {
  test(`MCP Inspector CLI, --protocol-era ${era}`, async (t) => {
    const fixture = makeFixture(t);

    const list = await inspect(fixture, era, 'list', ['--method', 'tools/list']);
    assert.equal(list.code, 0, list.stderr);
    assertTools(JSON.parse(list.stdout).result.tools);
    assertRun(list, wire, version);

    const off = await inspect(fixture, era, 'off', [
      '--method', 'tools/call', '--tool-name', 'read_working_context',
      '--tool-args-json', '{"memory":"off"}',
    ]);
    assert.equal(off.code, 0, off.stderr);
    assertOff(JSON.parse(off.stdout).result);
    assertRun(off, wire, version);

    const search = await inspect(fixture, era, 'search', [
      '--method', 'tools/call', '--tool-name', 'search_aios',
      '--tool-args-json', '{"query":"plan my day"}',
    ]);
    assert.equal(search.code, 0, search.stderr);
    const found = payload(JSON.parse(search.stdout).result);
    assert.equal(found.receipt, 'Memory: Shared');
    assertRun(search, wire, version);

    // The Inspector checks the tool name against tools/list itself and never sends the call
    // (exit 5, `tool_not_found`), so an unknown tool cannot reach the adapter through it.
    const unknown = await inspect(fixture, era, 'unknown', [
      '--method', 'tools/call', '--tool-name', 'log_event', '--tool-args-json', '{}',
    ]);
    assert.equal(unknown.code, 5);
    assert.equal(JSON.parse(unknown.stderr).error.code, 'tool_not_found');
    const unsent = assertRun(unknown, wire, version);
    assert.ok(!unsent.sent.some((message) => message.method === 'tools/call'));

    // A listed tool with an argument the schema forbids does reach the adapter (the Inspector
    // does not validate arguments); the Inspector prints the adapter's message but not the
    // JSON-RPC code, so the code is read from the wire.
    const bogus = await inspect(fixture, era, 'bogus', [
      '--method', 'tools/call', '--tool-name', 'search_aios',
      '--tool-args-json', '{"query":"x","bogus":1}',
    ]);
    assert.notEqual(bogus.code, 0);
    assert.equal(JSON.parse(bogus.stderr).error.message, 'Unknown tool argument');
    const rejected = assertRun(bogus, wire, version);
    assert.deepEqual(wireToolError(rejected, 'search_aios'), {
      code: -32602,
      message: 'Unknown tool argument',
    });
  });
}
