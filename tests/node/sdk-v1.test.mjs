// The adapter driven by the TypeScript SDK v1 client (`@modelcontextprotocol/sdk`), which knows
// only the legacy `initialize` handshake (contract 05 §13, contract 05 §14 item 62).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

import {
  assertCleanExits,
  exerciseTools,
  launcher,
  LEGACY_VERSION,
  makeFixture,
  sessions,
  wireToolError,
  wireVersion,
  workSession,
} from './harness.mjs';

// v1 has no public accessor for the negotiated version; it hands the `initialize` answer's
// version to the transport's optional `setProtocolVersion` hook, so a subclass can observe it.
class ObservedStdioTransport extends StdioClientTransport {
  negotiated = undefined;

  setProtocolVersion(version) {
    this.negotiated = version;
  }
}

test('TypeScript SDK v1 client (legacy handshake)', async (t) => {
  // The adapter echoes any supported handshake version, so v1 must land on the one it offers.
  assert.equal(LATEST_PROTOCOL_VERSION, LEGACY_VERSION);

  const fixture = makeFixture(t);
  const client = new Client({ name: 'dotaios-node-tests', version: '0.0.0' });
  const transport = new ObservedStdioTransport({ ...launcher(fixture), stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (chunk) => {
    stderr += chunk;
  });

  await client.connect(transport);
  try {
    assert.equal(transport.negotiated, LEGACY_VERSION);
    assert.equal(client.getServerVersion()?.name, 'dotaios-mcp');

    await exerciseTools(client);
  } finally {
    await client.close();
  }

  const all = await sessions(fixture);
  assertCleanExits(all);
  assert.equal(all.length, 1, 'one adapter process');
  const work = workSession(all);
  assert.deepEqual(wireVersion(work), { era: 'legacy', version: LEGACY_VERSION });
  assert.equal(wireToolError(work, 'log_event')?.code, -32602);
  assert.equal(stderr, '', 'adapter stderr');
});
