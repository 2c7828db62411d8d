import type { Knex } from 'knex';
import { nowTimestamp } from '../../shared/time';
import type { AdvisoriesStore } from '../dependency-alerts/advisories.store';
import { serializeAdvisory } from '../dependency-alerts/alerts.serializers';
import type { Outbox } from '../webhook-delivery/outbox';

// `security_advisory` webhook events (interfaces.md Part 2 "Webhooks"): an advisory published,
// updated or withdrawn by an import is told to the organization hooks whose repositories it
// affects (they have alerts of it, after the re-evaluation of the same transaction). One events
// row per (advisory, organization), written in the import's transaction like alert events.
// The payload is the original's security_advisory event with the id renamed (ghsa_id →
// svcsa_id): `{action, security_advisory, organization, enterprise?, sender}`.

export type AdvisoryEventAction = 'published' | 'updated' | 'withdrawn';

/** The original's security_advisory object, in its order, from the #-shape of an advisory. */
function webhookAdvisory(advisory: ReturnType<typeof serializeAdvisory>) {
  const { cvss, cwes, description, svcsa_id, identifiers, published_at, references, severity, summary, updated_at, vulnerabilities, withdrawn_at } = advisory;
  return { cvss, cwes, description, svcsa_id, identifiers, published_at, references, severity, summary, updated_at, vulnerabilities, withdrawn_at };
}

export class AdvisoryEvents {
  constructor(private readonly deps: { advisories: AdvisoriesStore; outbox: Outbox }) {}

  /** Records the events of these advisories (by id) for every organization they affect. */
  async record(trx: Knex.Transaction, actions: ReadonlyMap<number, AdvisoryEventAction>): Promise<void> {
    if (actions.size === 0) return;
    const affected: Array<{ advisory_id: number; org_id: number }> = await trx('dependency_alerts as a')
      .join('repositories as r', 'r.id', 'a.repo_id')
      .join('organizations as o', 'o.account_id', 'r.owner_id')
      .whereIn('a.advisory_id', [...actions.keys()])
      .distinct('a.advisory_id', 'o.account_id as org_id')
      .orderBy([{ column: 'a.advisory_id' }, { column: 'org_id' }]);
    if (affected.length === 0) return;
    const records = await this.deps.advisories.findByIds(trx, [...new Set(affected.map((r) => Number(r.advisory_id)))]);
    const now = nowTimestamp();
    await this.deps.outbox.insert(trx, affected.flatMap(({ advisory_id: advisoryId, org_id: orgId }) => {
      const record = records.get(Number(advisoryId));
      if (record === undefined) return [];
      return [{
        event: 'security_advisory', action: actions.get(Number(advisoryId))!, repo_id: null, org_id: Number(orgId), alert_id: null, sender_id: null,
        created_at: now, payload: JSON.stringify({ security_advisory: webhookAdvisory(serializeAdvisory(record)) }),
      }];
    }));
  }
}
