import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

// OpenVEX 0.2.0's rules as a JSON Schema, written here from the specification's normative text
// (https://github.com/openvex/spec/blob/main/OPENVEX-SPEC.md, v0.2.0: "Document", "Statement",
// "Vulnerability", "Component", "Status Labels", "Status Justifications"): no npm package ships
// the project's published schema, and the tests must run offline. Every MUST of those sections
// is here: the document's required fields, the statuses and justifications, the not_affected
// statement's justification or impact statement (one, not both), the affected statement's
// action statement, IRIs and timestamps in their formats, and no field the specification does
// not define.

const iri = { type: 'string', format: 'uri' } as const;
const timestamp = { type: 'string', format: 'date-time' } as const;
const identifiers = {
  type: 'object', additionalProperties: false,
  properties: { 'purl': { type: 'string' }, '@cpe22': { type: 'string' }, '@cpe23': { type: 'string' } },
} as const;
const HASH_ALGORITHMS = ['md5', 'sha1', 'sha-256', 'sha-384', 'sha-512', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512', 'blake2s-256', 'blake2b-256', 'blake2b-512'];
const hashes = { type: 'object', additionalProperties: false, properties: Object.fromEntries(HASH_ALGORITHMS.map((a) => [a, { type: 'string' }])) };
const subcomponent = { type: 'object', additionalProperties: false, properties: { '@id': iri, identifiers, hashes } } as const;
const product = {
  type: 'object', additionalProperties: false,
  properties: { '@id': iri, identifiers, hashes, subcomponents: { type: 'array', uniqueItems: true, items: subcomponent } },
} as const;

const statement = {
  type: 'object', additionalProperties: false, required: ['vulnerability', 'status'],
  properties: {
    '@id': iri,
    'version': { type: 'integer', minimum: 1 },
    'vulnerability': {
      type: 'object', additionalProperties: false, required: ['name'],
      properties: { '@id': iri, 'name': { type: 'string' }, 'description': { type: 'string' }, 'aliases': { type: 'array', uniqueItems: true, items: { type: 'string' } } },
    },
    'timestamp': timestamp,
    'last_updated': timestamp,
    'products': { type: 'array', uniqueItems: true, items: product },
    'status': { enum: ['not_affected', 'affected', 'fixed', 'under_investigation'] },
    'supplier': { type: 'string' },
    'status_notes': { type: 'string' },
    'justification': {
      enum: ['component_not_present', 'vulnerable_code_not_present', 'vulnerable_code_not_in_execute_path', 'vulnerable_code_cannot_be_controlled_by_adversary', 'inline_mitigations_already_exist'],
    },
    'impact_statement': { type: 'string' },
    'action_statement': { type: 'string' },
    'action_statement_timestamp': timestamp,
  },
  allOf: [
    {
      if: { properties: { status: { const: 'not_affected' } } },
      then: { oneOf: [{ required: ['justification'], not: { required: ['impact_statement'] } }, { required: ['impact_statement'], not: { required: ['justification'] } }] },
    },
    { if: { properties: { status: { const: 'affected' } } }, then: { required: ['action_statement'] } },
  ],
} as const;

export const OPENVEX_DOCUMENT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object', additionalProperties: false,
  required: ['@context', '@id', 'author', 'timestamp', 'version', 'statements'],
  properties: {
    '@context': { const: 'https://openvex.dev/ns/v0.2.0' },
    '@id': iri,
    'author': { type: 'string' },
    'role': { type: 'string' },
    'timestamp': timestamp,
    'last_updated': timestamp,
    'version': { type: 'integer', minimum: 1 },
    'tooling': { type: 'string' },
    'statements': { type: 'array', uniqueItems: true, minItems: 1, items: statement },
  },
} as const;

let compiled: ValidateFunction | undefined;

/** The validator of an OpenVEX 0.2.0 document (strict: unknown keywords are a mistake here). */
export function openVexValidator(): ValidateFunction {
  if (compiled === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    addFormats(ajv);
    compiled = ajv.compile(OPENVEX_DOCUMENT_SCHEMA);
  }
  return compiled;
}
