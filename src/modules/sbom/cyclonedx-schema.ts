import fs from 'node:fs';
import path from 'node:path';
import type { Spec } from '@cyclonedx/cyclonedx-library';
import Ajv, { type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { canonicalJson } from '../../shared/canonical-json';

// The CycloneDX specification's JSON schemas, as the CycloneDX library ships them and compiles
// them (its JsonValidator: ajv with the same options, formats and referenced schemas), with
// two differences, each the same rule checked faster: `uniqueItems`, which the schemas put on
// components, dependencies, hashes and more, is checked in one pass (ajv compares every pair of
// items, so a BOM of 5,000 components took 10 s to validate, 2,000: 1.3 s; now it is linear),
// and one pattern, a hash's content, is tested by what it says (hashContent below).

// ajv-formats-draft2019 ships no types: the one function orgsec calls, as the CycloneDX library calls it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const addDraft2019Formats = require('ajv-formats-draft2019') as (ajv: Ajv, options?: { formats?: string[] }) => Ajv;

/**
 * The schemas' pattern of a hash's content (every version's): 32, 40, 64, 96 or 128 hexadecimal
 * digits. V8 tries each length in turn, 2 µs a SHA-512 digest: a third of the validation of a
 * BOM whose components carry SHA-512 hashes. The length and then the digits take a quarter of
 * that. Any other pattern is V8's, as ajv would make it.
 */
const HASH_CONTENT = '^([a-fA-F0-9]{32}|[a-fA-F0-9]{40}|[a-fA-F0-9]{64}|[a-fA-F0-9]{96}|[a-fA-F0-9]{128})$';
const HASH_LENGTHS = new Set([32, 40, 64, 96, 128]);
const HEX_DIGITS = /^[a-fA-F0-9]*$/;
const hashContent = { test: (text: string) => HASH_LENGTHS.has(text.length) && HEX_DIGITS.test(text) };

/** ajv's pattern engine (its `code.regExp` option); `code` names it in generated code, which orgsec does not write out. */
const regExp: NonNullable<NonNullable<Options['code']>['regExp']> = Object.assign(
  (pattern: string, flags: string) => (pattern === HASH_CONTENT ? hashContent : new RegExp(pattern, flags)),
  { code: 'cycloneDxRegExp' },
);

const OPTIONS = { useDefaults: false, strict: false, strictSchema: false, addUsedSchema: false, allErrors: false, code: { regExp } } as const;

/** A schema file the library ships in res/schema (its exports map does not list them). */
const schemaFile = (name: string) => path.join(path.dirname(require.resolve('@cyclonedx/cyclonedx-library/package.json')), 'res', 'schema', name);

/** The schemas a BOM schema refers to, by the id it refers to them by. */
const REFERENCED = ['spdx.SNAPSHOT.schema.json', 'cryptography-defs.SNAPSHOT.schema.json', 'jsf-0.82.SNAPSHOT.schema.json'];

const readJson = (file: string): object => JSON.parse(fs.readFileSync(file, 'utf8')) as object;

/** FNV-1a of a text, mixed into `seed`. */
function hashText(text: string, seed: number): number {
  let hash = seed ^ 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * A number two items equal as JSON share: the sum (so keys count in any order) of each key
 * hashed with its value, an object or array value standing in by its kind and length. Items
 * of different fingerprints differ; only items of one fingerprint are compared whole, by
 * canonical JSON. A component's bom-ref and purl make its fingerprint its own, so its subtree
 * (licences, hashes, nested components) is neither serialized again nor copied into a text
 * (that allocation, and the collections it set off, were a third of a 2,000-component BOM's
 * validation).
 */
function fingerprintOf(item: object): number {
  if (Array.isArray(item)) return item.length;
  let sum = 0;
  for (const key in item) {
    if (!Object.hasOwn(item, key)) continue;
    const value = (item as Record<string, unknown>)[key];
    const shown = typeof value === 'string' ? hashText(value, 1) : value === null || typeof value !== 'object' ? hashText(String(value), 2)
      : Array.isArray(value) ? 3 + value.length : 4;
    sum = (sum + hashText(key, shown)) | 0;
  }
  return sum;
}

/** A fingerprint of which more than one item has been seen: its items are kept by their canonical text. */
const SHARED = -1;

/** Whether no two items are equal as JSON (object keys in any order); each item is fingerprinted once and serialized at most once. */
function uniqueItems(this: unknown, flag: boolean, items: unknown[]): boolean {
  if (!flag || items.length < 2) return true;
  const duplicate = (first: number, i: number) => {
    (uniqueItems as { errors?: Partial<ErrorObject>[] }).errors = [{ keyword: 'uniqueItems', message: `must not have duplicate items (items ${first} and ${i} are identical)`, params: { i: first, j: i } }];
    return false;
  };
  /** Strings, numbers, booleans and null by themselves (a Map tells "1" from 1). */
  const values = new Map<unknown, number>();
  /** By fingerprint: the first item of it, or SHARED. */
  const fingerprints = new Map<number, number>();
  const texts = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === null || typeof item !== 'object') {
      const first = values.get(item);
      if (first !== undefined) return duplicate(first, i);
      values.set(item, i);
      continue;
    }
    const fingerprint = fingerprintOf(item);
    const first = fingerprints.get(fingerprint);
    if (first === undefined) {
      fingerprints.set(fingerprint, i);
      continue;
    }
    if (first !== SHARED) {
      texts.set(canonicalJson(items[first]), first);
      fingerprints.set(fingerprint, SHARED);
    }
    const text = canonicalJson(item);
    const same = texts.get(text);
    if (same !== undefined) return duplicate(same, i);
    texts.set(text, i);
  }
  return true;
}

const compiled = new Map<Spec.Version, ValidateFunction>();

/** The validator of a CycloneDX version's JSON schema, compiled once (about a second) and kept. */
export function cycloneDxValidator(version: Spec.Version): ValidateFunction {
  let validate = compiled.get(version);
  if (validate) return validate;
  const schemas = Object.fromEntries(REFERENCED.map((name) => [`http://cyclonedx.org/schema/${name}`, readJson(schemaFile(name))]));
  const ajv = new Ajv({ ...OPTIONS, schemas, loadSchema: (uri) => { throw new Error(`Remote schemas are disabled: ${uri}`); } });
  addFormats(ajv);
  addDraft2019Formats(ajv, { formats: ['idn-email'] });
  ajv.addFormat('iri-reference', true);
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({ keyword: 'uniqueItems', type: 'array', schemaType: 'boolean', errors: true, validate: uniqueItems });
  validate = ajv.compile(readJson(schemaFile(`bom-${version}.SNAPSHOT.schema.json`)));
  compiled.set(version, validate);
  return validate;
}
