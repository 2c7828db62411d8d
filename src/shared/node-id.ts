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

export function encodeNodeId(type: NodeType, id: number): string {
  return `${PREFIXES[type]}_${Buffer.from(`orgsec:${type}:${id}`).toString('base64url')}`;
}

export function decodeNodeId(nodeId: string): { type: NodeType; id: number } | undefined {
  const match = /^([A-Z]{1,2})_([A-Za-z0-9_-]{1,64})$/.exec(nodeId);
  if (!match) return undefined;
  const decoded = /^orgsec:([A-Za-z]+):([1-9]\d{0,9})$/.exec(Buffer.from(match[2]!, 'base64url').toString());
  if (!decoded) return undefined;
  const type = decoded[1] as NodeType;
  const id = Number(decoded[2]);
  if (PREFIXES[type] !== match[1] || id > MAX_ID) return undefined;
  // Only the canonical spelling: base64 ignores trailing bits, so aliases would decode too.
  return encodeNodeId(type, id) === nodeId ? { type, id } : undefined;
}
