'use strict';
// The `dotaios-rs` launcher: finds the platform package npm installed as an optional
// dependency, refuses a binary whose SHA-256 differs from the one this launcher was released
// with (checksums.json, written by scripts/release.sh), and runs it with the same arguments,
// standard streams and exit status. It never downloads anything and never writes a file.
//
// The checksum is an integrity check against a corrupt or mismatched install (a truncated
// download, a platform package of another version), not a defence against someone who can
// write the package directory: this file, checksums.json and the binary sit in one npm tree
// owned by one user, so whoever can swap the binary after it was hashed can as well edit this
// file before it runs (docs/security.md, "The npm launcher").

const childProcess = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

// `${process.platform} ${process.arch}` → the package holding that platform's binaries.
const PLATFORMS = {
  'linux x64': 'dotaios-rs-linux-x64',
  'darwin arm64': 'dotaios-rs-darwin-arm64',
  'darwin x64': 'dotaios-rs-darwin-x64',
  'win32 x64': 'dotaios-rs-win32-x64',
};

const OTHER_WAYS =
  'install another way: pipx install dotaios-rs, a release archive, or cargo install --locked dotaios';

function fail(message) {
  process.stderr.write(`dotaios-rs: ${message}\n`);
  process.exit(1);
}

function binaryPath(name) {
  const platform = `${process.platform} ${process.arch}`;
  const pkg = PLATFORMS[platform];
  if (!pkg) {
    fail(`no prebuilt binary for ${platform}; ${OTHER_WAYS}`);
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch (_) {
    fail(`the platform package ${pkg} for ${platform} is not installed (were optional dependencies omitted?); ${OTHER_WAYS}`);
  }
  // The file in the package's bin/ and its checksums.json key: `.exe` on Windows.
  const file = process.platform === 'win32' ? `${name}.exe` : name;
  const exe = path.join(dir, 'bin', file);
  const expected = (require('../checksums.json')[pkg] || {})[file];
  let actual;
  try {
    actual = crypto.createHash('sha256').update(fs.readFileSync(exe)).digest('hex');
  } catch (error) {
    fail(`cannot read ${exe}: ${error.code || error.message}; ${OTHER_WAYS}`);
  }
  if (!expected || actual !== expected) {
    fail(`refusing to run ${exe}: its SHA-256 ${actual} is not the ${expected || 'listed'} checksum this launcher was released with, so the install is corrupt or mismatched; reinstall dotaios-rs`);
  }
  return exe;
}

function run(name) {
  const exe = binaryPath(name);
  const child = childProcess.spawn(exe, process.argv.slice(2), { stdio: 'inherit' });
  // Signals for the launcher go to the binary; the launcher exits the way the binary did.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('error', (error) => fail(`cannot start ${exe}: ${error.message}`));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else {
      process.exit(code === null ? 1 : code);
    }
  });
}

module.exports = { run, binaryPath, PLATFORMS };
