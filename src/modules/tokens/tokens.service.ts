import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { usesScopes } from '../../auth/grants';
import { generateToken, hashToken } from '../../auth/token-format';
import type { NewToken, TokenStore } from '../../auth/token.store';
import { withTransaction, type Executor } from '../../database/transaction';
import { ValidationError } from '../../errors/domain';
import { canonicalJson } from '../../shared/canonical-json';
import { normalizeTimestamp, nowTimestamp } from '../../shared/time';
import type { AccountsStore } from '../accounts/accounts.store';
import type { TokenDeclaration } from '../world/world.schema';
import type { AuditActor, AuditChange } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';

export interface IssuedToken {
  id: number;
  /** The raw token, only when this call generated it: the one time it is shown. */
  token: string | undefined;
  /** false when an identical declaration was already loaded (world files are idempotent). */
  created: boolean;
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError(message, [{ resource: 'Token', field, code: 'invalid', message }]);
}

/**
 * Identity of a token declared without a value: who it acts as, for whom, and its
 * optional name. Scopes, permissions, repositories, expiry and revocation are not part
 * of it, so a world file can narrow or revoke the token it generated.
 */
export function declarationKey(d: TokenDeclaration): string {
  const identity = {
    type: d.type,
    user: 'user' in d ? d.user.toLowerCase() : null,
    app: 'app' in d ? d.app ?? null : null,
    resource_owner: 'resource_owner' in d ? d.resource_owner.toLowerCase() : null,
    name: d.name ?? null,
  };
  return crypto.createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

/** Creates tokens from declarations (CLI and world files): references resolved, only hashes stored. */
export class TokensService {
  constructor(private readonly deps: { db: Knex; accounts: AccountsStore; tokens: TokenStore; audit: AuditRecorder }) {}

  /** `orgsec token create`: always a new token, recorded in the audit log by the command's actor. */
  async create(declaration: TokenDeclaration, actor: AuditActor): Promise<IssuedToken> {
    return withTransaction(this.deps.db, async (trx) => {
      const issued = await this.issue(trx, declaration, { idempotent: false });
      await this.deps.audit.record(trx, actor, [await this.createdRecord(trx, declaration, issued)]);
      return issued;
    });
  }

  /**
   * `orgsec token revoke`: the token with this id, or this value, refuses every request from now
   * on, on every instance (its look-up is cached per data version, which the revocation moves).
   * Recorded by the command's actor; a token revoked already is left as it was.
   */
  async revoke(which: { id: number } | { token: string }, actor: AuditActor): Promise<{ id: number; revoked: boolean }> {
    return withTransaction(this.deps.db, async (trx) => {
      const { tokens, accounts } = this.deps;
      const found = await tokens.findForRevocation(trx, 'id' in which ? { id: which.id } : { token_hash: hashToken(which.token) });
      if (!found) throw new ValidationError('No token has this id or value.', [{ resource: 'Token', field: 'token', code: 'missing', message: 'no token has this id or value' }]);
      if (!(await tokens.revoke(trx, found.id, nowTimestamp()))) return { id: found.id, revoked: false };
      const named = new Map((await accounts.findAccountsByIds(trx, [found.userId, found.ownerAccountId].flatMap((id) => (id === null ? [] : [id])))).map((a) => [a.id, a]));
      const user = found.userId === null ? undefined : named.get(found.userId);
      const owner = found.ownerAccountId === null ? undefined : named.get(found.ownerAccountId);
      await this.deps.audit.record(trx, actor, [{
        action: 'token.revoke', operation: 'remove',
        org: owner?.type === 'Organization' ? { id: owner.id, login: owner.login } : undefined,
        user: user === undefined ? undefined : { id: user.id, login: user.login },
        data: { revoked_token_id: found.id, token_type: found.type },
      }]);
      return { id: found.id, revoked: true };
    });
  }

  /** `token.create`: whose token, of which kind, with what it grants; of the token itself, its last four characters. */
  private async createdRecord(db: Executor, d: TokenDeclaration, issued: IssuedToken): Promise<AuditChange> {
    const { accounts } = this.deps;
    const user = 'user' in d ? await accounts.findUserByLogin(db, d.user) : undefined;
    const owner = 'resource_owner' in d ? await accounts.findAccountByLogin(db, d.resource_owner) : undefined;
    const enterprise = 'resource_owner' in d && owner === undefined ? await accounts.findEnterpriseBySlug(db, d.resource_owner) : undefined;
    const raw = issued.token ?? d.token;
    return {
      action: 'token.create', operation: 'create',
      org: owner?.type === 'Organization' ? { id: owner.id, login: owner.login } : undefined,
      enterprise: enterprise === undefined ? undefined : { id: enterprise.id, slug: enterprise.slug },
      user: user === undefined ? undefined : { id: user.id, login: user.login },
      data: {
        created_token_id: issued.id, token_type: d.type, token_last_four: raw === undefined ? null : raw.slice(-4),
        ...('scopes' in d ? { scopes: d.scopes } : { permissions: d.permissions, repositories: d.repositories }),
        ...('app' in d && d.app !== undefined ? { app: d.app } : {}),
        expires_at: d.expires_at ?? null,
      },
    };
  }

  async issue(db: Executor, declaration: TokenDeclaration, options: { idempotent: boolean }): Promise<IssuedToken> {
    const record = await this.resolve(db, declaration);
    const { tokens } = this.deps;
    if (declaration.token !== undefined) {
      const tokenHash = hashToken(declaration.token);
      const updated = await tokens.updateByIdentity(db, { token_hash: tokenHash }, { ...record, tokenHash, declarationKey: null });
      if (updated !== undefined) return { id: updated, token: undefined, created: false };
      return { id: await tokens.insert(db, { ...record, tokenHash, declarationKey: null }), token: undefined, created: true };
    }
    const key = options.idempotent ? declarationKey(declaration) : null;
    const raw = generateToken(declaration.type);
    const token = { ...record, tokenHash: hashToken(raw), declarationKey: key };
    if (key !== null) {
      const updated = await tokens.updateByIdentity(db, { declaration_key: key }, token);
      if (updated !== undefined) return { id: updated, token: undefined, created: false };
    }
    return { id: await tokens.insert(db, token), token: raw, created: true };
  }

  private async resolve(db: Executor, d: TokenDeclaration): Promise<Omit<NewToken, 'tokenHash' | 'declarationKey'>> {
    const { accounts } = this.deps;
    const now = nowTimestamp();
    const expiresAt = d.expires_at ? normalizeTimestamp(d.expires_at)! : null;
    const base = { expiresAt, revokedAt: d.revoked ? now : null, createdAt: now, scopes: [] as NewToken['scopes'], permissions: {}, appName: null, userId: null };
    let userId: number | null = null;
    if (d.type !== 'installation') {
      const user = await accounts.findUserByLogin(db, d.user);
      if (!user) throw invalid('user', `user "${d.user}" does not exist`);
      userId = user.id;
    }
    if (usesScopes(d.type)) {
      if (!('scopes' in d)) throw invalid('scopes', 'a classic token needs scopes');
      return { ...base, type: d.type, userId, scopes: d.scopes, ownerAccountId: null, ownerEnterpriseId: null, repositorySelection: null, repositoryIds: [] };
    }
    if (!('resource_owner' in d)) throw invalid('resource_owner', `a ${d.type} token needs a resource_owner`);
    const account = await accounts.findAccountByLogin(db, d.resource_owner);
    const enterprise = account ? undefined : await accounts.findEnterpriseBySlug(db, d.resource_owner);
    if (!account && !enterprise) throw invalid('resource_owner', `resource owner "${d.resource_owner}" is neither an account nor an enterprise`);
    let repositoryIds: number[] = [];
    if (d.repositories !== 'all') {
      if (!account) throw invalid('repositories', 'an enterprise-owned token cannot select repositories');
      repositoryIds = [];
      for (const name of d.repositories) {
        const repo = await accounts.findRepository(db, account.login, name);
        if (!repo) throw invalid('repositories', `repository "${account.login}/${name}" does not exist`);
        repositoryIds.push(repo.id);
      }
    }
    return {
      ...base,
      type: d.type,
      userId,
      appName: 'app' in d && d.app !== undefined ? d.app : null,
      permissions: d.permissions,
      ownerAccountId: account?.id ?? null,
      ownerEnterpriseId: enterprise?.id ?? null,
      repositorySelection: d.repositories === 'all' ? 'all' : 'selected',
      repositoryIds,
    };
  }
}
