// The `project` patterns the adapter publishes in `tools/list` (contract 05 §5, contract 05 §14
// items 4 and 7), compiled the way a JavaScript client compiles JSON Schema patterns: `new RegExp(p, 'u')`.
// The tool list comes through the TypeScript SDK v1 client, so the schemas are what a real
// client receives.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { launcher, makeFixture } from './harness.mjs';

function projectSchema(tools, name) {
  const tool = tools.find((candidate) => candidate.name === name);
  assert.ok(tool, `${name} is listed`);
  const schema = tool.inputSchema.properties.project;
  assert.ok(schema, `${name} has a project property`);
  return schema;
}

/** What a JSON Schema validator does with a string against `minLength` and `pattern`. */
function accepts(schema, value) {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) return false;
  if (schema.maxLength !== undefined && length > schema.maxLength) return false;
  return new RegExp(schema.pattern, 'u').test(value);
}

test('project patterns compile with the Unicode flag and accept and reject as the checklist says', async (t) => {
  const fixture = makeFixture(t);
  const client = new Client({ name: 'dotaios-node-tests', version: '0.0.0' });
  await client.connect(new StdioClientTransport(launcher(fixture)));
  let tools;
  try {
    tools = (await client.listTools()).tools;
  } finally {
    await client.close();
  }

  // Item 4: read_working_context's selector.
  const rwc = projectSchema(tools, 'read_working_context');
  assert.equal(rwc.minLength, 1);
  assert.ok(accepts(rwc, 'demo-id'));
  assert.ok(accepts(rwc, 'café:client/01'), 'opaque ids are allowed here (contract 01 §6.4.1)');
  assert.ok(!accepts(rwc, '   '));
  assert.ok(!accepts(rwc, 'demo\n'));

  // Item 7: search_aios's canonical selector.
  const search = projectSchema(tools, 'search_aios');
  assert.ok(accepts(search, 'acme-campaign'));
  assert.ok(accepts(search, 'acme:website'));
  assert.ok(!accepts(search, ' acme-campaign '));
  assert.ok(!accepts(search, 'a/b'));
});
