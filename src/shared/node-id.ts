// Global, opaque node ids shared by REST `node_id` fields and GraphQL `node(id)`.
const PREFIXES = {
  User: 'U',
  Organization: 'O',
  Enterprise: 'E',
  Team: 'T',
  Repository: 'R',
  OrganizationRole: 'OR',
  DependencyAlert: 'DA',
  Advisory: 'SA',
  Attestation: 'AT',
} as const;

export type NodeType = keyof typeof PREFIXES;

const MAX_ID = 2 ** 31 - 1; // ids are 32-bit integer columns

/**
 * `scope` qualifies ids that are not unique alone: a predefined organization role has one
 * id in every organization, so its node id names the organization too.
 */
export function encodeNodeId(type: NodeType, id: number, scope?: number): string {
  return `${PREFIXES[type]}_${Buffer.from(`orgsec:${type}:${id}${scope === undefined ? '' : `@${scope}`}`).toString('base64url')}`;
}

export function decodeNodeId(nodeId: string): { type: NodeType; id: number; scope?: number } | undefined {
  const match = /^([A-Z]{1,2})_([A-Za-z0-9_-]{1,64})$/.exec(nodeId);
  if (!match) return undefined;
  const decoded = /^orgsec:([A-Za-z]+):([1-9]\d{0,9})(?:@([1-9]\d{0,9}))?$/.exec(Buffer.from(match[2]!, 'base64url').toString());
  if (!decoded) return undefined;
  const type = decoded[1] as NodeType;
  const id = Number(decoded[2]);
  const scope = decoded[3] === undefined ? undefined : Number(decoded[3]);
  if (PREFIXES[type] !== match[1] || id > MAX_ID || (scope ?? 0) > MAX_ID) return undefined;
  // Only the canonical spelling: base64 ignores trailing bits, so aliases would decode too.
  if (encodeNodeId(type, id, scope) !== nodeId) return undefined;
  return scope === undefined ? { type, id } : { type, id, scope };
}
