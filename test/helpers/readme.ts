import fs from 'node:fs';
import path from 'node:path';

// The README as a user reads it: its sections and the packages its examples install.

const ROOT = path.join(__dirname, '..', '..');
export const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The packages this project depends on (dependencies and devDependencies): an example may only install these, so the suite runs it. */
export function suitePackages(): string[] {
  return Object.keys(suiteVersions());
}

/** The suite's own packages with the versions it pins (package.json). */
export function suiteVersions(): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return { ...pkg.dependencies, ...pkg.devDependencies };
}

/** The suite's overrides (package.json): what a README install must override as the suite does. */
export function suiteOverrides(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).overrides ?? {};
}
