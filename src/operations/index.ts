import { CALLER_RULE_WORDING } from '../auth/requirements';
import { ADVISORY_OPERATIONS } from './advisories';
import { ATTESTATION_OPERATIONS } from './attestations';
import { AUDIT_LOG_OPERATIONS } from './audit-log';
import { AUTO_TRIAGE_OPERATIONS } from './auto-triage';
import { DEPENDENCY_ALERT_OPERATIONS } from './dependency-alerts';
import { DEPENDENCY_GRAPH_OPERATIONS } from './dependency-graph';
import { OIDC_OPERATIONS } from './oidc';
import type { Operation } from './operation';
import { ORG_ROLE_OPERATIONS } from './org-roles';
import { VEX_OPERATIONS } from './vex';
import { WEBHOOK_OPERATIONS } from './webhooks';

// The one catalogue of the REST API's operations, by name. Routes register from it
// (http/operation.ts), the authorizer reads its requirements, /openapi.json is generated
// from it, and the tests sweep it. A new operation is one entry in its area's file plus
// its handler; a new area is one more file spread in here, with its tag (operation.ts)
// described in openapi/document.ts.

const CATALOGUE = {
  ...ORG_ROLE_OPERATIONS,
  ...OIDC_OPERATIONS,
  ...ATTESTATION_OPERATIONS,
  ...DEPENDENCY_ALERT_OPERATIONS,
  ...VEX_OPERATIONS,
  ...ADVISORY_OPERATIONS,
  ...DEPENDENCY_GRAPH_OPERATIONS,
  ...AUTO_TRIAGE_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...AUDIT_LOG_OPERATIONS,
};

export type OperationName = keyof typeof CATALOGUE;

export const OPERATIONS: Readonly<Record<OperationName, Operation>> = CATALOGUE;

/** Every operation with its name, in the spec's order. */
export const OPERATION_LIST: ReadonlyArray<Operation & { name: OperationName }> = (Object.keys(OPERATIONS) as OperationName[])
  .map((name) => ({ name, ...OPERATIONS[name] }))
  .sort((a, b) => a.number - b.number);

/** Who may call an operation, as the description of a GraphQL field behind it says (in parentheses). */
export function callersOf(name: OperationName): string {
  return CALLER_RULE_WORDING[OPERATIONS[name].requirement.caller].field;
}

export type { HttpMethod, Operation, OperationDocs, OperationTag } from './operation';
export { OPERATION_TAGS, expressPath } from './operation';
