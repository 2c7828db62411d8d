import { z } from 'zod';
import { orgPath, repoPath, stateListParameter } from '../dependency-alerts/alerts.schemas';
import type { AlertFilters } from '../dependency-alerts/alerts.types';
import type { InputContext } from '../../http/validate';
import { CYCLONEDX_MEDIA_TYPE } from './cyclonedx-vex';
import { OPENVEX_MEDIA_TYPE } from './openvex';

// VEX documents' parameters, and their bodies as /openapi.json describes them: the documents
// follow their specifications (CycloneDX 1.6's JSON schema, OpenVEX 0.2.0's), which the tests
// check them against; these schemas name the parts a client reads.

export const VEX_INPUT: InputContext = { resource: 'DependencyAlert', invalidStatus: 422, topLevelFields: true };

export { orgPath, repoPath };

export const vexQuery = z.strictObject({
  state: stateListParameter.optional().describe('Only alerts in these states (comma-separated: open, dismissed, fixed, auto_dismissed); every state when not given.'),
});

/** The alerts a document states, from its query. */
export function vexFilters(q: z.output<typeof vexQuery>): AlertFilters {
  return q.state === undefined ? {} : { state: q.state };
}

const property = z.object({ name: z.string(), value: z.string() });

export const cycloneDxVexSchema = z.looseObject({
  bomFormat: z.literal('CycloneDX'),
  specVersion: z.literal('1.6'),
  serialNumber: z.string().describe('urn:uuid: a new one per document'),
  version: z.literal(1),
  metadata: z.looseObject({ timestamp: z.iso.datetime() }),
  vulnerabilities: z.array(z.looseObject({
    'bom-ref': z.string().describe('The alert\'s URL'),
    id: z.string().describe('The advisory\'s identifier'),
    analysis: z.looseObject({
      state: z.enum(['resolved', 'exploitable', 'in_triage', 'false_positive', 'not_affected']),
      justification: z.string().optional(),
      response: z.array(z.string()).optional(),
      detail: z.string().optional(),
    }),
    affects: z.array(z.object({ ref: z.string() })).describe('The vulnerable packages, by the bom-ref of their component'),
    properties: z.array(property).describe('orgsec:alert:number, orgsec:alert:state, orgsec:alert:dismissed_reason, orgsec:alert:manifest_path'),
  })),
  components: z.array(z.looseObject({ 'bom-ref': z.string(), name: z.string() })),
}).describe('A CycloneDX 1.6 BOM with vulnerabilities (VEX): each alert a vulnerability, its assessment in `analysis`.');

export const openVexSchema = z.looseObject({
  '@context': z.literal('https://openvex.dev/ns/v0.2.0'),
  '@id': z.string(),
  author: z.string(),
  timestamp: z.iso.datetime(),
  version: z.literal(1),
  statements: z.array(z.looseObject({
    '@id': z.string().describe('The alert\'s URL'),
    vulnerability: z.looseObject({ name: z.string() }),
    products: z.array(z.looseObject({ '@id': z.string() })),
    status: z.enum(['not_affected', 'affected', 'fixed', 'under_investigation']),
  })),
}).describe('An OpenVEX 0.2.0 document: one statement per alert.');

/** The media types a VEX operation answers in, by Accept (the first when any will do; JSON for a client that asks for JSON). */
export const VEX_MEDIA_TYPES = { [CYCLONEDX_MEDIA_TYPE]: cycloneDxVexSchema, [OPENVEX_MEDIA_TYPE]: openVexSchema, 'application/json': cycloneDxVexSchema } as const;
