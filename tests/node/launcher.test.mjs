// The npm launcher (packaging/npm/launcher/lib/run.js) in a package tree laid out as npm lays it
// out: it runs the platform binary whose SHA-256 it was released with, passing arguments and the
// exit status through, and refuses any other binary with one line that calls it what it is, a
// corrupt or mismatched install (docs/security.md, "The npm launcher": the package directory is
// one trust domain, so the checksum is an integrity check, not a defence).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const LAUNCHER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../packaging/npm/launcher',
);
const PLATFORM = 'dotaios-rs-linux-x64';

// A node_modules tree with the launcher and a platform package whose `dotaios-mcp` is a shell
// script; `listed` is the checksum the launcher "was released with".
function tree(binary, listed) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dotaios-launcher-'));
  const launcher = path.join(root, 'node_modules', 'dotaios-rs');
  fs.mkdirSync(path.join(launcher, 'lib'), { recursive: true });
  fs.mkdirSync(path.join(launcher, 'bin'));
  fs.copyFileSync(path.join(LAUNCHER, 'lib', 'run.js'), path.join(launcher, 'lib', 'run.js'));
  fs.copyFileSync(
    path.join(LAUNCHER, 'bin', 'dotaios-mcp.js'),
    path.join(launcher, 'bin', 'dotaios-mcp.js'),
  );
  fs.writeFileSync(
    path.join(launcher, 'checksums.json'),
    JSON.stringify({ [PLATFORM]: { 'dotaios-mcp': listed(binary) } }),
  );
  const platform = path.join(root, 'node_modules', PLATFORM);
  fs.mkdirSync(path.join(platform, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(platform, 'package.json'), JSON.stringify({ name: PLATFORM }));
  fs.writeFileSync(path.join(platform, 'bin', 'dotaios-mcp'), binary, { mode: 0o755 });
  return { root, entry: path.join(launcher, 'bin', 'dotaios-mcp.js') };
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');
const BINARY = '#!/bin/sh\necho "ran with $*"\nexit 3\n';
const linuxX64 = process.platform === 'linux' && process.arch === 'x64';

test('the released binary runs with its arguments and exit status', { skip: !linuxX64 }, () => {
  const { root, entry } = tree(BINARY, sha256);
  try {
    const ran = spawnSync(process.execPath, [entry, '--path', 'x'], { encoding: 'utf8' });
    assert.equal(ran.stdout, 'ran with --path x\n');
    assert.equal(ran.stderr, '');
    assert.equal(ran.status, 3);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('another binary is refused as a corrupt or mismatched install', { skip: !linuxX64 }, () => {
  const { root, entry } = tree(BINARY, () => sha256('the released bytes'));
  try {
    const ran = spawnSync(process.execPath, [entry, '--version'], { encoding: 'utf8' });
    assert.equal(ran.status, 1);
    assert.equal(ran.stdout, '', 'nothing ran');
    assert.match(
      ran.stderr,
      /^dotaios-rs: refusing to run .*dotaios-mcp: its SHA-256 [0-9a-f]{64} is not the [0-9a-f]{64} checksum this launcher was released with, so the install is corrupt or mismatched; reinstall dotaios-rs\n$/,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

// Every platform a release builds (scripts/release.sh) has its package, named by npm's `os` and
// `cpu` as the platform packages are; Windows among them, whose binaries end in `.exe`.
test('the launcher knows the package of every released platform', async () => {
  const { createRequire } = await import('node:module');
  const { PLATFORMS } = createRequire(import.meta.url)(path.join(LAUNCHER, 'lib', 'run.js'));
  assert.deepEqual(PLATFORMS, {
    'linux x64': 'dotaios-rs-linux-x64',
    'darwin arm64': 'dotaios-rs-darwin-arm64',
    'darwin x64': 'dotaios-rs-darwin-x64',
    'win32 x64': 'dotaios-rs-win32-x64',
  });
});
