import type { RepositoryRecord } from '../accounts/accounts.types';

// What the audit log holds (issue 37): the original's audit-log event shape in this
// service's terms.

export const OPERATION_TYPES = ['create', 'modify', 'remove', 'access'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];

/** Who made a change: a token's holder, an app, the engine or a command. */
export interface AuditActor {
  /** A login, `app-name[bot]`, `dependency-bot[bot]` (the engine) or `orgsec-cli` (a command). */
  actor: string;
  actorId: number | null;
  actorIsBot: boolean;
  tokenId: number | null;
  /** Which kind of token made it (null: the engine or a command). */
  programmaticAccessType: string | null;
}

/** One change, as a write path describes it; the recorder adds who, when and where from. */
export interface AuditChange {
  action: string;
  operation: OperationType;
  org?: { id: number; login: string } | undefined;
  /** An enterprise's own change (its organizations' changes name the org; the recorder adds its enterprise). */
  enterprise?: { id: number; slug: string } | undefined;
  repo?: Pick<RepositoryRecord, 'id' | 'name' | 'ownerId' | 'ownerLogin' | 'ownerType'> | undefined;
  user?: { id: number; login: string } | undefined;
  /** `org/slug`, as the original names teams. */
  team?: { id: number; name: string } | undefined;
  /** The action's own fields: what it changed, `{ field: { before, after } }` under `changes`, and what it concerns. No secret. */
  data?: Record<string, unknown> | undefined;
}

/** A record as stored and shown. */
export interface AuditRecord {
  id: number;
  documentId: string;
  createdAt: number;
  action: string;
  operationType: OperationType;
  actor: string | null;
  actorId: number | null;
  actorIsBot: boolean;
  orgId: number | null;
  org: string | null;
  enterpriseId: number | null;
  business: string | null;
  repoId: number | null;
  repo: string | null;
  userId: number | null;
  user: string | null;
  teamId: number | null;
  team: string | null;
  tokenId: number | null;
  programmaticAccessType: string | null;
  requestId: string | null;
  data: Record<string, unknown>;
}
