import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { ApiClient } from './api-client';
import { ORG, REPO } from './crash-world';
import { LaneCounts, type Lane } from './lane';
import { signedBundle, statement, type Signer } from '../helpers/signed-bundles';

// #21: each write stores a new signed bundle with more subjects than one insert statement
// takes (the store writes them 200 at a time), so an attestation is several statements in
// one transaction. After a crash each acknowledged one is there with every subject, and the
// one in flight is there with every subject or not at all.

const SUBJECTS_PER_BUNDLE = 250;
const createPath = `/repos/${ORG}/${REPO}/attestations`;

interface Written {
  digests: string[];
}

function newDigests(): string[] {
  return Array.from({ length: SUBJECTS_PER_BUNDLE }, () => `sha256:${crypto.randomBytes(32).toString('hex')}`);
}

/** The ids #22 lists for a subject digest (read from each item's bundle_url). */
async function idsListedFor(api: ApiClient, digest: string): Promise<number[]> {
  const { status, body } = await api.send('GET', `${createPath}/${digest}`);
  if (status !== 200) throw new Error(`GET attestations for ${digest} answered ${status}`);
  return body.attestations.map((a: { bundle_url: string }) => Number(a.bundle_url.split('/').pop()));
}

export class AttestationLane implements Lane {
  readonly name = 'attestations';
  private readonly acknowledged = new Map<number, Written>();
  /** Acknowledged since the last verify: these are read back through the API too. */
  private unread: number[] = [];
  private inFlight: Written | undefined;
  private readonly tally = new LaneCounts();

  constructor(private readonly signer: Signer) {}

  async write(api: ApiClient): Promise<string | undefined> {
    const digests = newDigests();
    const bundle = signedBundle(this.signer, statement({ subjects: digests.map((d, i) => ({ name: `artifact-${i}`, digest: { sha256: d.slice(7) } })) }));
    this.inFlight = { digests };
    const answer = await api.send('POST', createPath, { bundle });
    this.inFlight = undefined;
    if (answer.status !== 201) return `${this.name}: POST answered ${answer.status} ${JSON.stringify(answer.body)}`;
    this.acknowledged.set(answer.body.id, { digests });
    this.unread.push(answer.body.id);
    this.tally.acknowledged += 1;
    return undefined;
  }

  async verify(api: ApiClient, knex: Knex): Promise<string[]> {
    const problems: string[] = [];
    // Through the API: the first and last subject of each, which two different statements wrote.
    for (const id of this.unread) {
      const { digests } = this.acknowledged.get(id)!;
      for (const digest of [digests[0]!, digests.at(-1)!]) {
        const ids = await idsListedFor(api, digest);
        if (ids.length !== 1 || ids[0] !== id) problems.push(`${this.name}: acknowledged attestation ${id} is not listed for ${digest} (listed: ${ids.join(', ') || 'none'})`);
      }
    }
    this.unread = [];
    let appliedInFlight: number | undefined;
    if (this.inFlight) {
      const first = await idsListedFor(api, this.inFlight.digests[0]!);
      const last = await idsListedFor(api, this.inFlight.digests.at(-1)!);
      if (first.length > 1 || first.join() !== last.join()) problems.push(`${this.name}: the attestation in flight is listed as [${first}] for its first subject and [${last}] for its last`);
      appliedInFlight = first[0];
      if (appliedInFlight !== undefined) this.acknowledged.set(appliedInFlight, this.inFlight);
      this.tally.settle(appliedInFlight !== undefined);
      this.inFlight = undefined;
    }
    // In the database: exactly the attestations written, each with all of its subjects.
    const rows: Array<{ id: number; subjects: number }> = await knex('attestations as a')
      .leftJoin('attestation_subjects as s', 's.attestation_id', 'a.id')
      .groupBy('a.id')
      .select('a.id', knex.raw('count(s.digest) as subjects'));
    const stored = new Map(rows.map((r) => [Number(r.id), Number(r.subjects)]));
    for (const id of this.acknowledged.keys()) if (!stored.has(id)) problems.push(`${this.name}: attestation ${id} is missing from the database`);
    for (const [id, subjects] of stored) {
      if (!this.acknowledged.has(id)) problems.push(`${this.name}: attestation ${id} was never acknowledged nor in flight`);
      else if (subjects !== SUBJECTS_PER_BUNDLE) problems.push(`${this.name}: attestation ${id} has ${subjects} of its ${SUBJECTS_PER_BUNDLE} subjects`);
    }
    return problems;
  }

  counts() {
    return this.tally.snapshot();
  }
}
