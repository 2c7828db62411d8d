import type { Executor } from '../database/transaction';
import { parseJsonColumn, toJsonColumn } from '../shared/json';
import type { Permissions, Scope, TokenType } from './grants';

export interface TokenRecord {
  id: number;
  type: TokenType;
  userId: number | null;
  userLogin: string | null;
  appName: string | null;
  scopes: Scope[];
  permissions: Permissions;
  ownerAccountId: number | null;
  ownerEnterpriseId: number | null;
  repositorySelection: 'all' | 'selected' | null;
  repositoryIds: number[];
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface NewToken {
  tokenHash: string;
  type: TokenType;
  userId: number | null;
  appName: string | null;
  scopes: readonly Scope[];
  permissions: Permissions;
  ownerAccountId: number | null;
  ownerEnterpriseId: number | null;
  repositorySelection: 'all' | 'selected' | null;
  repositoryIds: readonly number[];
  expiresAt: string | null;
  revokedAt: string | null;
  declarationKey: string | null;
  createdAt: string;
}

export class TokenStore {
  async findByHash(db: Executor, tokenHash: string): Promise<TokenRecord | undefined> {
    const row = await db('tokens as t')
      .leftJoin('accounts as u', 'u.id', 't.user_id')
      .where('t.token_hash', tokenHash)
      .first(
        't.id', 't.type', 't.user_id', 'u.login as user_login', 't.app_name', 't.scopes', 't.permissions',
        't.owner_account_id', 't.owner_enterprise_id', 't.repository_selection', 't.expires_at', 't.revoked_at',
      );
    if (!row) return undefined;
    const repositoryIds =
      row.repository_selection === 'selected'
        ? (await db('token_repositories').where('token_id', row.id).select('repo_id')).map((r) => Number(r.repo_id))
        : [];
    return {
      id: Number(row.id),
      type: row.type,
      userId: row.user_id === null ? null : Number(row.user_id),
      userLogin: row.user_login ?? null,
      appName: row.app_name,
      scopes: parseJsonColumn<Scope[]>(row.scopes, []),
      permissions: parseJsonColumn<Permissions>(row.permissions, {}),
      ownerAccountId: row.owner_account_id === null ? null : Number(row.owner_account_id),
      ownerEnterpriseId: row.owner_enterprise_id === null ? null : Number(row.owner_enterprise_id),
      repositorySelection: row.repository_selection,
      repositoryIds,
      expiresAt: row.expires_at,
      revokedAt: row.revoked_at,
    };
  }

  async insert(db: Executor, token: NewToken): Promise<number> {
    const [row] = await db('tokens')
      .insert({ ...tokenColumns(token), token_hash: token.tokenHash, revoked_at: token.revokedAt, declaration_key: token.declarationKey, created_at: token.createdAt })
      .returning('id');
    const id = Number(typeof row === 'object' ? row.id : row);
    await this.insertRepositories(db, id, token.repositoryIds);
    return id;
  }

  /**
   * Updates the token a world file declares again, found by its value's hash or, for one
   * declared without a value, by its declaration key; undefined when there is none.
   */
  async updateByIdentity(db: Executor, identity: { token_hash: string } | { declaration_key: string }, token: NewToken): Promise<number | undefined> {
    const existing = await db('tokens').where(identity).first('id');
    if (!existing) return undefined;
    const id = Number(existing.id);
    await db('tokens').where('id', id).update({
      ...tokenColumns(token),
      // Keep the first revocation time, so reloading a world file changes nothing.
      revoked_at: token.revokedAt === null ? null : db.raw('COALESCE(revoked_at, ?)', [token.revokedAt]),
    });
    await db('token_repositories').where('token_id', id).delete();
    await this.insertRepositories(db, id, token.repositoryIds);
    return id;
  }

  /** The token with this id or value's hash, as a revocation names it; undefined when there is none. */
  async findForRevocation(db: Executor, which: { id: number } | { token_hash: string }): Promise<{ id: number; type: TokenRecord['type']; userId: number | null; ownerAccountId: number | null; ownerEnterpriseId: number | null; revokedAt: string | null } | undefined> {
    const row = await db('tokens').where(which).first('id', 'type', 'user_id', 'owner_account_id', 'owner_enterprise_id', 'revoked_at');
    if (!row) return undefined;
    const id = (value: unknown) => (value === null ? null : Number(value));
    return { id: Number(row.id), type: row.type, userId: id(row.user_id), ownerAccountId: id(row.owner_account_id), ownerEnterpriseId: id(row.owner_enterprise_id), revokedAt: row.revoked_at };
  }

  /** Revokes a token not revoked yet; whether this call did. */
  async revoke(db: Executor, id: number, now: string): Promise<boolean> {
    return (await db('tokens').where('id', id).whereNull('revoked_at').update({ revoked_at: now })) > 0;
  }

  private async insertRepositories(db: Executor, tokenId: number, repositoryIds: readonly number[]): Promise<void> {
    if (repositoryIds.length === 0) return;
    await db('token_repositories').insert(repositoryIds.map((repoId) => ({ token_id: tokenId, repo_id: repoId })));
  }
}

/** The columns a token declaration sets, on insert and on update alike. */
function tokenColumns(token: NewToken) {
  return {
    type: token.type,
    user_id: token.userId,
    app_name: token.appName,
    scopes: toJsonColumn(token.scopes),
    permissions: toJsonColumn(token.permissions),
    owner_account_id: token.ownerAccountId,
    owner_enterprise_id: token.ownerEnterpriseId,
    repository_selection: token.repositorySelection,
    expires_at: token.expiresAt,
  };
}
