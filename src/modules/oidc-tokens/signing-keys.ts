import crypto, { type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Knex } from 'knex';
import type { DataVersions } from '../../database/data-version';
import { toTimestamp } from '../../shared/time';
import type { RsaPublicJwk, SigningKeysStore } from './signing-keys.store';
import { withTransaction } from '../../database/transaction';
import type { AuditActor } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';

const generateKeyPair = promisify(crypto.generateKeyPair);

/** How long a replaced key stays in the JWKS (interfaces.md: a day), so tokens it signed still verify. */
export const REPLACED_KEY_KEPT_MS = 24 * 60 * 60 * 1000;

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** A JWKS entry (RFC 7517). */
export interface Jwk extends RsaPublicJwk {
  alg: 'RS256';
  use: 'sig';
  kid: string;
}

/** RFC 7638: the SHA-256 thumbprint of the required members, in lexicographic order. */
function thumbprint(jwk: RsaPublicJwk): string {
  return crypto.createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url');
}

/**
 * The signing keys every instance shares (RS256, 2048 bits, in the database). The first is
 * made on first use; of instances making it at once, one insert wins and all sign with it.
 * The key in use is kept in memory with the data version it was read at: the table moves
 * data_versions, so while the version stands the key does (a mint reads nothing for it), and
 * a rotation anywhere is seen at the next request; a changed version costs one read, and a
 * new import only when the key changed.
 */
export class SigningKeys {
  private cached: { version: number | undefined; key: SigningKey } | undefined;

  constructor(private readonly deps: { db: Knex; store: SigningKeysStore; clock: () => number; audit: AuditRecorder }) {}

  /** The key to sign with now. `versions`: the request's, under which a key read before holds. */
  async current(versions?: DataVersions): Promise<SigningKey> {
    const cached = this.cached;
    if (versions !== undefined && cached?.version === versions.data) return cached.key;
    const { db, store } = this.deps;
    let stored = await store.findCurrent(db);
    if (!stored) {
      await this.create(1);
      stored = await store.findCurrent(db);
      if (!stored) throw new Error('no OIDC signing key after creating one');
    }
    const key = cached?.key.kid === stored.kid ? cached.key : { kid: stored.kid, privateKey: crypto.createPrivateKey(stored.privateKeyPem) };
    this.cached = { version: versions?.data, key };
    return key;
  }

  /** `orgsec oidc rotate-key`: a new signing key, recorded by `actor`; the one it replaces stays in the JWKS for a day. */
  async rotate(actor: AuditActor): Promise<{ kid: string; replaced: string | undefined }> {
    // Concurrent rotations each take the next generation; a loser tries the one after.
    for (let attempt = 0; attempt < 5; attempt++) {
      const [current] = await this.deps.store.listPublic(this.deps.db);
      const kid = await this.create((current?.generation ?? 0) + 1, async (trx, made) => {
        await this.deps.audit.record(trx, actor, [{ action: 'oidc.signing_key.rotate', operation: 'create', data: { kid: made, replaced_kid: current?.kid ?? null } }]);
      });
      if (kid !== undefined) return { kid, replaced: current?.kid };
    }
    throw new Error('could not rotate the OIDC signing key: other rotations kept taking the next generation');
  }

  /** The JWKS: the signing key and each key replaced less than a day ago, newest first. */
  async publicKeys(): Promise<Jwk[]> {
    let keys = await this.deps.store.listPublic(this.deps.db);
    if (keys.length === 0) {
      await this.current(); // relying parties may come before the first token: the key is made now
      keys = await this.deps.store.listPublic(this.deps.db);
    }
    const now = this.deps.clock();
    return keys
      .filter((_key, i) => i === 0 || now - Date.parse(keys[i - 1]!.createdAt) < REPLACED_KEY_KEPT_MS)
      .map((key) => ({ ...key.publicJwk, alg: 'RS256', use: 'sig', kid: key.kid }));
  }

  /**
   * Makes a key at `generation`; its kid, or undefined when another instance took the generation.
   * `made`: what else the insert's transaction writes once the key is in (a rotation's record).
   */
  private async create(generation: number, made?: (trx: Knex.Transaction, kid: string) => Promise<void>): Promise<string | undefined> {
    const { privateKey, publicKey } = await generateKeyPair('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    const exported = publicKey.export({ format: 'jwk' });
    const publicJwk: RsaPublicJwk = { kty: 'RSA', n: String(exported.n), e: String(exported.e) };
    const kid = thumbprint(publicJwk);
    const key = { generation, kid, publicJwk, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), createdAt: toTimestamp(new Date(this.deps.clock())) };
    const inserted = await withTransaction(this.deps.db, async (trx) => {
      const isNew = await this.deps.store.insert(trx, key);
      if (isNew) await made?.(trx, kid);
      return isNew;
    });
    return inserted ? kid : undefined;
  }
}
