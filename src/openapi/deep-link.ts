import { OPERATIONS, type OperationName } from '../operations';

/**
 * The fragment that opens an operation in Swagger UI (/docs, deep linking on): `#/{tag}/{operationId}`,
 * each segment percent-encoded as Swagger UI itself writes it when an operation is opened. The
 * Octokit operationIds contain `/` (`orgs/list-org-roles`), hence `%2F`; the page's initializer
 * splits the fragment before decoding it (openapi.routes.ts).
 */
export function operationFragment(name: OperationName): string {
  const { docs, operationId } = OPERATIONS[name];
  return `#/${encodeURIComponent(docs.tag)}/${encodeURIComponent(operationId)}`;
}
