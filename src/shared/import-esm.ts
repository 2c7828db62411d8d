import crypto from 'node:crypto';

// Some dependencies (stream-json) ship only as ES modules; this code is CommonJS, whose
// import() TypeScript would turn into require. A Function keeps it a real import().
// The source carries a nonce: V8 caches compiled code by source text, and under jest a
// cached function would keep the import hook of the test file that first compiled it.
const loader = new Function('specifier', `return import(specifier); // ${crypto.randomUUID()}`) as (specifier: string) => Promise<any>;

export function importEsm(specifier: string): Promise<any> {
  return loader(specifier);
}
