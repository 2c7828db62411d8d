import crypto from 'node:crypto';

// Some clients the tests drive (Octokit, graphql-codegen's dependencies) ship only as ES
// modules; the suite is CommonJS. An import() that TypeScript leaves alone (it would turn
// it into require) loads them, with jest run under --experimental-vm-modules.
//
// The function's source carries a nonce: V8 caches compiled code by source text, and a
// cached function keeps the import hook of the test file that first compiled it, so a
// later test file in the same jest worker would import through a torn-down environment.
const loader = new Function('specifier', `return import(specifier); // ${crypto.randomUUID()}`) as (specifier: string) => Promise<any>;

export function importEsm(specifier: string): Promise<any> {
  return loader(specifier);
}
