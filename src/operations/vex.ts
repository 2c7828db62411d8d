import { VEX_MEDIA_TYPES, cycloneDxVexSchema, orgPath, repoPath, vexQuery } from '../modules/vex/vex.schemas';
import type { Operation } from './operation';

// Issue 39: alerts out as VEX documents (orgsec's own operations, after #68).

const TAG = 'dependency-alerts';

const FORMATS = 'CycloneDX 1.6 (`Accept: application/vnd.cyclonedx+json`, or none) or OpenVEX 0.2.0 (`Accept: application/openvex+json`); '
  + 'a client asking for JSON (`application/json`, the API\'s own types) gets CycloneDX as `application/json`; any other Accept answers 406. '
  + 'The mapping of alert states and dismissal reasons is in the README.';
const WHOLE = 'One document of every alert the list would show (no pages), written as it is read: a repository\'s vulnerable packages are the versions '
  + 'its current snapshots hold, else the package without a version. An OpenVEX document of no alert has no statements.';

export const VEX_OPERATIONS = {
  getRepositoryVex: {
    number: 69, operationId: 'dependency-bot/get-vex-for-repo', method: 'get', path: '/repos/{owner}/{repo}/dependency-bot/vex', success: 200,
    // A new serial number and timestamp each time: no answer is another's.
    uncached: true,
    streamed: true,
    request: { params: repoPath, query: vexQuery },
    response: { schema: cycloneDxVexSchema },
    mediaTypes: VEX_MEDIA_TYPES,
    requirement: { target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'repoAlertManager' },
    docs: { tag: TAG, summary: 'Get the dependency alerts of a repository as a VEX document', statuses: [406], rules: [FORMATS, WHOLE] },
  },
  getOrganizationVex: {
    number: 70, operationId: 'dependency-bot/get-vex-for-org', method: 'get', path: '/orgs/{org}/dependency-bot/vex', success: 200,
    uncached: true,
    streamed: true,
    request: { params: orgPath, query: vexQuery },
    response: { schema: cycloneDxVexSchema },
    mediaTypes: VEX_MEDIA_TYPES,
    requirement: { target: 'org', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'orgSecurityManager' },
    docs: { tag: TAG, summary: 'Get the dependency alerts of an organization as a VEX document', statuses: [406], rules: [
        FORMATS, WHOLE, 'Repositories come in the order of their ids, each one\'s alerts by number; a `public_repo` token states only public repositories\' alerts.',
      ] },
  },
} satisfies Record<string, Operation>;
