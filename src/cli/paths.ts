import fs from 'node:fs';
import path from 'node:path';

/** The package root, from src/ (tests) or dist/src/ (the built CLI). */
export function packageRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}

let version: string | undefined;

/** orgsec's version (package.json): deliveries' User-Agent, documents' tool. */
export function packageVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

export function demoWorldPath(): string {
  return path.join(packageRoot(), 'db', 'demo-world.json');
}

/** The real OSV advisories the demo imports (db/advisories/README.md). */
export function demoAdvisoriesPath(): string {
  return path.join(packageRoot(), 'db', 'advisories');
}
