// jest globalSetup: the browser tests (test/e2e/browser.test.ts, cross-origin.test.ts) drive Debian's Chromium with
// playwright-core, which downloads no browser. Find it (CHROMIUM_PATH, /usr/bin/chromium, PATH);
// when it is missing and we may (root with apt-get), install Debian's package; otherwise leave
// the browser tests a message saying how to get it (CHROMIUM_MISSING), so only they fail.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const BROWSER_TESTS = ['browser.test.ts', 'cross-origin.test.ts'].map((file) => path.join(__dirname, '..', 'e2e', file));
const HOW_TO = 'install Chromium (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome executable';

const isExecutable = (file) => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The first `name` on PATH, if any. */
const onPath = (name) => (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, name)).find(isExecutable);

const run = (command, args) => spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });

/** apt-get install, after apt-get update when the package lists are stale or absent. */
function installWithApt() {
  console.log('\nChromium is missing: installing Debian\'s chromium package for the browser tests (apt-get install -y chromium)...');
  let install = run('apt-get', ['install', '-y', 'chromium']);
  if (install.status !== 0) {
    run('apt-get', ['update']);
    install = run('apt-get', ['install', '-y', 'chromium']);
  }
  if (install.status !== 0) return `apt-get install -y chromium failed (exit ${install.status}): ${(install.stderr || install.stdout || String(install.error)).trim().split('\n').slice(-3).join(' | ')}`;
  return undefined;
}

/** The Chromium to use, or why there is none. */
function findOrInstallChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    return isExecutable(configured) ? { path: configured } : { missing: `CHROMIUM_PATH=${configured} is not an executable file: ${HOW_TO}.` };
  }
  const found = [isExecutable('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined, onPath('chromium'), onPath('chromium-browser')].find(Boolean);
  if (found) return { path: found };
  const mayInstall = process.getuid?.() === 0 && onPath('apt-get') !== undefined;
  if (!mayInstall) return { missing: `The browser tests need Chromium, which is not installed: ${HOW_TO}.` };
  const failure = installWithApt();
  const installed = isExecutable('/usr/bin/chromium') ? '/usr/bin/chromium' : onPath('chromium');
  if (installed) return { path: installed };
  return { missing: `The browser tests need Chromium and installing it failed (${failure ?? 'no chromium after apt-get install'}): ${HOW_TO}.` };
}

module.exports = async function chromiumSetup(globalConfig) {
  // Only when this run includes the browser tests: `jest test/cli` needs no browser.
  const pattern = globalConfig.testPathPattern;
  if (pattern && !BROWSER_TESTS.some((file) => new RegExp(pattern, 'i').test(file))) return;
  const chromium = findOrInstallChromium();
  if (chromium.path) process.env.CHROMIUM_PATH = chromium.path;
  else process.env.CHROMIUM_MISSING = chromium.missing;
};
