import crypto from 'node:crypto';
import fs from 'node:fs';
import type { TrustMaterial } from '@sigstore/verify';
import { sigstore } from './sigstore-libraries';

// The trusted roots attestations are verified against (interfaces.md Part 2 "Attestation
// trust"): the Sigstore public-good root shipped with orgsec, and the roots of the file named
// by ATTESTATION_TRUSTED_ROOTS (JSON lines, as `gh attestation trusted-root` prints them).
//
// The public-good root is the trusted_root.json that @sigstore/tuf ships as the seed of its
// TUF client (seeds.json). orgsec reads that file only and never runs the client: no network,
// ever. It is refreshed by a version bump of @sigstore/tuf (the Sigstore maintainers update
// the seed with each key rotation); a newer root can also be added at once as a line of
// ATTESTATION_TRUSTED_ROOTS, which is consulted first.

const PUBLIC_GOOD_TUF_REPOSITORY = 'https://tuf-repo-cdn.sigstore.dev';
const ORGANIZATION_OID = '2.5.4.10';

/** A trusted root ready to verify with: what it provides, and whose certificates it issues. */
export interface TrustRoot {
  /** Where it came from, for messages: `the bundled public-good root` or `ATTESTATION_TRUSTED_ROOTS line 2`. */
  source: string;
  material: TrustMaterial;
  /** The organizations its certificate authorities issue leaf certificates as (gh chooses the root by them). */
  issuerOrganizations: Set<string>;
  /** The JSON it was read from, canonical enough to fingerprint the roots in force. */
  text: string;
}

/** The organization names (O=) of an X.509 Name, given as @sigstore/core's `issuer`/`subject` give it: the DER of its RDN sets. */
export function organizationsOf(name: Buffer): string[] {
  const out: string[] = [];
  let rest = Buffer.from(name);
  while (rest.length > 0) {
    const rdn = sigstore().core.ASN1Obj.parseBuffer(rest);
    for (const attribute of rdn.subs) {
      const [oid, value] = attribute.subs;
      if (oid && value && oid.toOID() === ORGANIZATION_OID) out.push(value.value.toString('utf8'));
    }
    rest = rest.subarray(rdn.toDER().length);
  }
  return out;
}

/** A root from its JSON (protobuf JSON of dev.sigstore.trustroot.v1.TrustedRoot); throws saying why it is unusable. */
function toTrustRoot(json: unknown, source: string, text: string): TrustRoot {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error('not a JSON object');
  const mediaType = (json as { mediaType?: unknown }).mediaType;
  if (typeof mediaType !== 'string' || !mediaType.startsWith('application/vnd.dev.sigstore.trustedroot')) {
    throw new Error('mediaType is not application/vnd.dev.sigstore.trustedroot+json');
  }
  const { core, protobufSpecs, verify } = sigstore();
  const root = protobufSpecs.TrustedRoot.fromJSON(json);
  if (root.certificateAuthorities.length === 0) throw new Error('it lists no certificate authority');
  const material = verify.toTrustMaterial(root);
  const issuerOrganizations = new Set<string>();
  for (const ca of root.certificateAuthorities) {
    // As gh does: the certificate nearest the leaves names the organization leaf certificates carry as issuer.
    const lowest = ca.certChain?.certificates[0];
    if (!lowest) throw new Error('a certificate authority has no certificate');
    const certificate = core.X509Certificate.parse(Buffer.from(lowest.rawBytes));
    for (const org of [...organizationsOf(certificate.subject), ...organizationsOf(certificate.issuer)]) issuerOrganizations.add(org);
  }
  return { source, material, issuerOrganizations, text };
}

let bundled: TrustRoot | undefined;

/** The public-good root shipped in @sigstore/tuf (read once). */
export function publicGoodRoot(): TrustRoot {
  if (bundled) return bundled;
  const seeds = JSON.parse(fs.readFileSync(require.resolve('@sigstore/tuf/seeds.json'), 'utf8')) as Record<string, { targets: Record<string, string> }>;
  const encoded = seeds[PUBLIC_GOOD_TUF_REPOSITORY]?.targets['trusted_root.json'];
  if (encoded === undefined) throw new Error('@sigstore/tuf ships no public-good trusted_root.json');
  const text = Buffer.from(encoded, 'base64').toString('utf8');
  bundled = toTrustRoot(JSON.parse(text), 'the bundled public-good root', text);
  return bundled;
}

/** The outcome of reading a trusted-roots file: its roots, or the first problem, naming its line. */
export type TrustedRootsFile = { roots: TrustRoot[] } | { problem: string };

/** Reads ATTESTATION_TRUSTED_ROOTS: one root per line; blank lines are skipped. */
export function readTrustedRootsFile(path: string): TrustedRootsFile {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : `cannot be read (${code ?? 'error'})` };
  }
  const roots: TrustRoot[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const source = `ATTESTATION_TRUSTED_ROOTS line ${index + 1}`;
    try {
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new Error('not JSON');
      }
      roots.push(toTrustRoot(json, source, line.trim()));
    } catch (error) {
      return { problem: `line ${index + 1} is not a trusted root: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return { roots };
}

/** Identifies the roots in force: a stored verdict is kept while it is the same. */
export function fingerprintOf(roots: readonly TrustRoot[], rulesVersion: number): string {
  const hash = crypto.createHash('sha256').update(`rules ${rulesVersion}\n`);
  for (const root of roots) hash.update(root.text).update('\n');
  return hash.digest('hex');
}
