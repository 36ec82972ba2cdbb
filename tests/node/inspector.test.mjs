// The adapter driven by the MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`) in each
// protocol era it offers (contract 05 §13, contract 05 §14 item 62). Every era lands in a
// structured one (contract 05 §3.4): the tool list passes `--strict` (no schema portability
// finding at all), input errors are `isError` results carrying their exact message. The Inspector runs as a
// subprocess through `npx --no-install`, which puts this package's `node_modules/.bin` first on
// PATH, so its `node` is the Node 22 this package installs where the system Node is older.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';

import {
  assertCleanExits,
  assertInputError,
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

    const list = await inspect(fixture, era, 'list', ['--method', 'tools/list', '--strict']);
    assert.equal(list.code, 0, list.stderr);
    const listed = JSON.parse(list.stdout);
    assertTools(listed.result.tools);
    assert.equal(listed.schemaFindings, undefined, 'no schema portability finding');
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

    const skill = await inspect(fixture, era, 'skill', [
      '--method', 'tools/call', '--tool-name', 'resolve_skill',
      '--tool-args-json', '{"intent":"plan my day"}',
    ]);
    assert.equal(skill.code, 0, skill.stderr);
    assert.equal(payload(JSON.parse(skill.stdout).result).matches[0].name, 'plan-today');
    assertRun(skill, wire, version);

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
    // does not validate arguments); the answer is a tool result with `isError`, which the
    // Inspector prints in full and reports with exit status 5 (`tool_is_error`).
    for (const [name, args, message] of [
      ['bogus', '{"query":"x","bogus":1}', 'Unknown tool argument'],
      ['budget', '{"query":"x","budget":20}', 'budget must be an integer from 3530 to 32000'],
    ]) {
      const refused = await inspect(fixture, era, name, [
        '--method', 'tools/call', '--tool-name', 'search_aios', '--tool-args-json', args,
      ]);
      assert.equal(refused.code, 5, refused.stderr);
      assertInputError(JSON.parse(refused.stdout).result, message);
      const answered = assertRun(refused, wire, version);
      assert.equal(wireToolError(answered, 'search_aios'), undefined, 'no JSON-RPC error');
    }
  });
}
