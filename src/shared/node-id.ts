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

export function encodeNodeId(type: NodeType, id: number): string {
  return `${PREFIXES[type]}_${Buffer.from(`orgsec:${type}:${id}`).toString('base64url')}`;
}

export function decodeNodeId(nodeId: string): { type: NodeType; id: number } | undefined {
  const match = /^([A-Z]{1,2})_([A-Za-z0-9_-]{1,64})$/.exec(nodeId);
  if (!match) return undefined;
  const decoded = /^orgsec:([A-Za-z]+):([1-9]\d{0,15})$/.exec(Buffer.from(match[2]!, 'base64url').toString());
  if (!decoded) return undefined;
  const type = decoded[1] as NodeType;
  if (PREFIXES[type] !== match[1]) return undefined;
  return { type, id: Number(decoded[2]) };
}
