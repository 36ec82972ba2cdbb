// The adapter driven by the TypeScript SDK v2 client (`@modelcontextprotocol/client`) in its
// three negotiation modes (contract 05 §13, contract 05 §14 item 62).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import {
  assertCleanExits,
  assertOnlyProbesBesides,
  exerciseTools,
  launcher,
  LEGACY_VERSION,
  makeFixture,
  MODERN_VERSION,
  sessions,
  wireToolError,
  wireVersion,
  workSession,
} from './harness.mjs';

const MODES = [
  { label: 'legacy', mode: 'legacy', era: 'legacy', version: LEGACY_VERSION },
  { label: 'auto', mode: 'auto', era: 'modern', version: MODERN_VERSION },
  { label: `pin ${MODERN_VERSION}`, mode: { pin: MODERN_VERSION }, era: 'modern', version: MODERN_VERSION },
];

for (const { label, mode, era, version } of MODES) {
  test(`TypeScript SDK v2 client, mode ${label}`, async (t) => {
    const fixture = makeFixture(t);
    const client = new Client(
      { name: 'dotaios-node-tests', version: '0.0.0' },
      { versionNegotiation: { mode } },
    );
    const transport = new StdioClientTransport({ ...launcher(fixture), stderr: 'pipe' });
    let stderr = '';
    transport.stderr.on('data', (chunk) => {
      stderr += chunk;
    });

    await client.connect(transport);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), version);
      assert.equal(client.getProtocolEra(), era);
      assert.equal(client.getServerVersion()?.name, 'dotaios-mcp');

      const found = await exerciseTools(client);
      assert.equal(found.budget.limit, 6000);
    } finally {
      await client.close();
    }

    const all = await sessions(fixture);
    assertCleanExits(all);
    const work = workSession(all);
    assertOnlyProbesBesides(all, work);
    // Legacy sends no probe; auto and pin probe `server/discover` on a disposable sibling.
    assert.equal(all.length, era === 'legacy' ? 1 : 2, 'adapter processes started');
    assert.deepEqual(wireVersion(work), { era, version });
    assert.equal(wireToolError(work, 'log_event')?.code, -32602);
    assert.equal(stderr, '', 'adapter stderr');
  });
}
