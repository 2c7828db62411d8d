import type { Knex } from 'knex';
import { nowTimestamp } from '../../shared/time';
import type { Executor } from '../../database/transaction';
import type { AdvisoryLookupStore } from './advisories.lookup-store';
import { serializeAdvisory } from './advisories.serializers';
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

/** Who has alerts of advisories (the alerts store). */
export interface AlertedOrganizations {
  /** By advisory then organization. */
  organizationsAlertedBy(db: Executor, advisoryIds: readonly number[]): Promise<Array<{ advisoryId: number; orgId: number }>>;
}

export class AdvisoryEvents {
  constructor(private readonly deps: { advisories: AdvisoryLookupStore; alerts: AlertedOrganizations; outbox: Outbox }) {}

  /** Records the events of these advisories (by id) for every organization they affect. */
  async record(trx: Knex.Transaction, actions: ReadonlyMap<number, AdvisoryEventAction>): Promise<void> {
    if (actions.size === 0) return;
    const affected = await this.deps.alerts.organizationsAlertedBy(trx, [...actions.keys()]);
    if (affected.length === 0) return;
    const records = await this.deps.advisories.findByIds(trx, [...new Set(affected.map((r) => r.advisoryId))]);
    const now = nowTimestamp();
    await this.deps.outbox.insert(trx, affected.flatMap(({ advisoryId, orgId }) => {
      const record = records.get(advisoryId);
      if (record === undefined) return [];
      return [{
        event: 'security_advisory', action: actions.get(advisoryId)!, repo_id: null, org_id: orgId, alert_id: null, sender_id: null,
        created_at: now, payload: JSON.stringify({ security_advisory: webhookAdvisory(serializeAdvisory(record)) }),
      }];
    }));
  }
}
