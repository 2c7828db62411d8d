import type { Executor } from '../../database/transaction';
import { parseJsonColumn, toJsonColumn } from '../../shared/json';

/** A JWKS entry's key material: RSA public key parameters (base64url). */
export interface RsaPublicJwk {
  kty: 'RSA';
  n: string;
  e: string;
}

export interface PublicSigningKey {
  generation: number;
  kid: string;
  publicJwk: RsaPublicJwk;
  createdAt: string;
}

export interface StoredSigningKey extends PublicSigningKey {
  /** PKCS #8 PEM: read by the signer only, never shown. */
  privateKeyPem: string;
}

const PUBLIC_COLUMNS = ['generation', 'kid', 'public_jwk', 'created_at'];

function toPublic(row: Record<string, unknown>): PublicSigningKey {
  const jwk = parseJsonColumn<RsaPublicJwk>(row.public_jwk, { kty: 'RSA', n: '', e: '' });
  return { generation: Number(row.generation), kid: String(row.kid), publicJwk: { kty: 'RSA', n: jwk.n, e: jwk.e }, createdAt: String(row.created_at) };
}

/** The OIDC signing keys (db/migrations/20261127080100_create_oidc_signing_keys.ts). */
export class SigningKeysStore {
  /** The signing key (the highest generation), with its private key. */
  async findCurrent(db: Executor): Promise<StoredSigningKey | undefined> {
    const row = await db('oidc_signing_keys').orderBy('generation', 'desc').first([...PUBLIC_COLUMNS, 'private_key']);
    return row ? { ...toPublic(row), privateKeyPem: String(row.private_key) } : undefined;
  }

  /** Every key's public part, newest first. */
  async listPublic(db: Executor): Promise<PublicSigningKey[]> {
    const rows = await db('oidc_signing_keys').orderBy('generation', 'desc').select(PUBLIC_COLUMNS);
    return rows.map(toPublic);
  }

  /** Inserts a key at its generation; false when another instance took that generation first. */
  async insert(db: Executor, key: StoredSigningKey): Promise<boolean> {
    const inserted = await db('oidc_signing_keys')
      .insert({
        generation: key.generation, kid: key.kid, algorithm: 'RS256', public_jwk: toJsonColumn(key.publicJwk),
        private_key: key.privateKeyPem, created_at: key.createdAt,
      })
      .onConflict('generation')
      .ignore()
      .returning('generation');
    return inserted.length > 0;
  }
}
