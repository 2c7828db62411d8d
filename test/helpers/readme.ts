import fs from 'node:fs';
import path from 'node:path';

// The README as a user reads it: its sections and the packages its examples install.

const ROOT = path.join(__dirname, '..', '..');
export const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The packages this project depends on (dependencies and devDependencies): an example may only install these, so the suite runs it. */
export function suitePackages(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
}
