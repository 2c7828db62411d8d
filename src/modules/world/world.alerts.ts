import { withBulkCache } from '../../database/dialect';
import { nameKey } from '../accounts/accounts.store';
import { advisoryPackageKey, type AdvisoryPackage } from '../advisories/advisories.lookup-store';
import type { AdvisoryFacts, WorldAlert } from '../dependency-alerts/alerts.store';
import {
  assigneesOf, changesFromWorld, findAlertsByIdentity, findAlertsByNumber, identityKeyOf, insertAlerts, insertNewAlertsAssignees, numberKeyOf,
  deferBulkInsertWork, replaceAssignees, updateAlert, type NewWorldAlert, type StoredWorldAlert,
} from '../dependency-alerts/alerts.world-store';
import type { SectionContext } from './world.accounts';
import type { AdvisoryStores } from './world.security';
import type { WorldAlertDeclaration } from './world.schema';
import type { AlertBatch, WorldSource } from './world.source';
import { fail, storedTimestamp as ts } from './world.support';
import { alertsSchemaError, parseAlert } from './world.validation';
import { NumbersInserted } from './numbers-inserted';

// From this many alerts on, the list indexes are built once after inserting rather than row by row.
const BULK_LOAD_ALERTS = 20_000;

interface Declared {
  index: number;
  alert: WorldAlertDeclaration;
}

interface Resolved {
  row: WorldAlert;
  assigneeIds: number[];
}

/**
 * Alerts are keyed by (repository, number); one given without a number is keyed by what
 * makes it the same alert, and numbered after every number the file or the database uses.
 * They are written a batch at a time: one read of the stored rows, one multi-row insert,
 * updates only for rows that differ, and the assignee sets of the whole batch.
 */
export async function loadAlerts(ctx: SectionContext, source: WorldSource, stores: AdvisoryStores, onProgress: (done: number) => void): Promise<void> {
  const isBulk = source.alertCount >= BULK_LOAD_ALERTS;
  const wasEmpty = (await ctx.trx('dependency_alerts').first('id')) === undefined;
  const writer = new AlertBatchWriter(ctx, stores, isBulk, wasEmpty ? new NumbersInserted() : undefined);
  let done = 0;
  const advance = (count: number) => {
    const thousands = Math.floor((done + count) / 1000);
    if (thousands > Math.floor(done / 1000)) onProgress(thousands * 1000);
    done += count;
  };
  const writeAll = async (isNumbered: boolean) => {
    let skipped = 0;
    for await (const batch of source.alertBatches()) {
      const declared = (await parseBatch(source, batch)).filter((d) => (d.alert.number !== undefined) === isNumbered);
      skipped += batch.values.length - declared.length;
      await writer.write(declared);
      advance(declared.length);
    }
    return skipped;
  };
  const load = async () => {
    // Numbered alerts first, so an unnumbered one never takes a number the file claims; the
    // unnumbered ones are read again afterwards rather than held in memory.
    const unnumbered = await writeAll(true);
    if (unnumbered > 0) await writeAll(false);
    await writer.finish();
  };
  await (isBulk ? withBulkCache(ctx.trx, load) : load());
}

/** Parses a batch; on a schema problem, throws the message a whole-world parse gives. */
async function parseBatch(source: WorldSource, batch: AlertBatch): Promise<Declared[]> {
  const declared: Declared[] = [];
  for (const [offset, value] of batch.values.entries()) {
    const parsed = parseAlert(value, batch.start + offset);
    if (!parsed.alert) throw (await alertsSchemaError(source))!;
    declared.push({ index: batch.start + offset, alert: parsed.alert });
  }
  return declared;
}

/** The key that makes two declarations the same alert, before any reference is resolved. */
function declaredKey({ alert: a }: Declared): string {
  const repo = nameKey(a.repository);
  if (a.number !== undefined) return `${repo}#${a.number}`;
  return [repo, a.advisory, a.package.ecosystem, a.package.name, a.manifest_path].join('\u0000');
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, i) => id === b[i]);
}

class AlertBatchWriter {
  private readonly advisoryIds = new Map<string, number | undefined>();
  private readonly facts = new Map<string, (AdvisoryFacts & { covered: boolean }) | undefined>();
  private readonly nextNumbers = new Map<number, number>();
  private restoreBulkWork: (() => Promise<void>) | undefined;

  /** `inserted`: given when the table was empty as the load began (numbers-inserted.ts). */
  constructor(
    private readonly ctx: SectionContext, private readonly stores: AdvisoryStores, private readonly isBulk: boolean, private readonly inserted: NumbersInserted | undefined,
  ) {}

  /** Builds again the indexes and triggers a bulk insert dropped. */
  async finish(): Promise<void> {
    await this.restoreBulkWork?.();
  }

  /**
   * Writes declarations in file order. A declaration of an alert already declared earlier in
   * the batch starts a new run, so it sees the earlier one written, as one-by-one loading did.
   */
  async write(declared: readonly Declared[]): Promise<void> {
    let run: Declared[] = [];
    const keys = new Set<string>();
    for (const d of declared) {
      const key = declaredKey(d);
      if (keys.has(key)) {
        await this.writeRun(run);
        run = [];
        keys.clear();
      }
      keys.add(key);
      run.push(d);
    }
    await this.writeRun(run);
  }

  private async writeRun(run: readonly Declared[]): Promise<void> {
    if (run.length === 0) return;
    const { trx, now } = this.ctx;
    await this.lookUpAdvisories(run);
    const resolved: Resolved[] = [];
    for (const d of run) resolved.push(await this.resolve(d));
    const isNumbered = resolved[0]!.row.number !== undefined;
    const keyOf = (row: WorldAlert) => (isNumbered ? numberKeyOf({ repo_id: row.repo_id, number: row.number! }) : identityKeyOf(row));
    const stored: Map<string, StoredWorldAlert> = !isNumbered
      ? await findAlertsByIdentity(trx, resolved.map(({ row }) => row))
      : this.inserted && resolved.every(({ row }) => !this.inserted!.mayHold(row.repo_id, row.number!))
        ? new Map()
        : await findAlertsByNumber(trx, resolved.map(({ row }) => ({ repo_id: row.repo_id, number: row.number! })));

    const inserts: NewWorldAlert[] = [];
    const assigneesOfNew = new Map<string, number[]>();
    const assigneesOfStored = new Map<number, number[]>();
    for (const { row, assigneeIds } of resolved) {
      const existing = stored.get(keyOf(row));
      if (existing) {
        const changes = changesFromWorld(existing, row);
        if (changes) await updateAlert(trx, Number(existing.id), changes);
        assigneesOfStored.set(Number(existing.id), assigneeIds);
        continue;
      }
      const createdAt = row.created_at ?? now;
      const number = row.number ?? (await this.nextNumber(row.repo_id));
      inserts.push(Object.assign(row, { number, created_at: createdAt, updated_at: row.updated_at ?? createdAt }));
      if (assigneeIds.length > 0) assigneesOfNew.set(numberKeyOf({ repo_id: row.repo_id, number }), assigneeIds);
    }

    // Only once rows are to be inserted: a reload that writes nothing leaves the indexes alone.
    if (this.isBulk && inserts.length > 0 && !this.restoreBulkWork) this.restoreBulkWork = await deferBulkInsertWork(trx);
    const insertedIds = await insertAlerts(trx, inserts);
    for (const row of inserts) this.inserted?.add(row.repo_id, row.number);
    await insertNewAlertsAssignees(trx, new Map([...assigneesOfNew].map(([key, ids]) => [insertedIds.get(key)!, ids])));
    const current = await assigneesOf(trx, [...assigneesOfStored.keys()]);
    const changed = new Map([...assigneesOfStored].filter(([alertId, ids]) => !sameIds(current.get(alertId) ?? [], ids)));
    if (changed.size > 0) await replaceAssignees(trx, changed);
  }

  /** Resolves a declaration's references, failing on the first that does not, as named before. */
  private async resolve({ index, alert: a }: Declared): Promise<Resolved> {
    const { refs } = this.ctx;
    const entry = `alerts[${index}] "${a.repository}${a.number ? `#${a.number}` : ''}"`;
    const repo = await refs.repo(entry, a.repository);
    // Looked up for the whole run before (lookUpAdvisories).
    const advisoryId = this.advisoryIds.get(a.advisory) ?? fail(entry, `advisory "${a.advisory}" does not exist`);
    const found = this.facts.get(advisoryPackageKey({ advisoryId, ecosystem: a.package.ecosystem, packageName: a.package.name }));
    if (!found?.covered) fail(entry, `advisory "${a.advisory}" has no vulnerability for ${a.package.ecosystem}/${a.package.name}`);
    const { covered: _covered, ...facts } = found;
    const row: WorldAlert = {
      repo_id: repo.id,
      owner_id: repo.ownerId,
      number: a.number,
      advisory_id: advisoryId,
      ecosystem: a.package.ecosystem,
      package_name: a.package.name,
      manifest_path: a.manifest_path,
      scope: a.scope,
      relationship: a.relationship,
      state: a.state,
      created_at: ts(a.created_at) ?? undefined,
      updated_at: ts(a.updated_at) ?? undefined,
      fixed_at: ts(a.fixed_at),
      auto_dismissed_at: ts(a.auto_dismissed_at),
      dismissed_at: ts(a.dismissed_at),
      dismissed_by_id: a.dismissed_by ? (await refs.user(entry, a.dismissed_by)).id : null,
      dismissed_reason: a.dismissed_reason ?? null,
      dismissed_comment: a.dismissed_comment ?? null,
      ...facts,
    };
    const assigneeIds: number[] = [];
    for (const login of new Set(a.assignees.map(nameKey))) assigneeIds.push((await refs.user(entry, login)).id);
    return { row, assigneeIds: assigneeIds.sort((x, y) => x - y) };
  }

  /** The advisory ids and facts a run refers to that were not looked up yet: a few statements a run, not two an advisory. */
  private async lookUpAdvisories(run: readonly Declared[]): Promise<void> {
    const { trx } = this.ctx;
    const unknownIds = run.map((d) => d.alert.advisory).filter((svcsaId) => !this.advisoryIds.has(svcsaId));
    // The store's keys (its strings): one from the file is a slice of a 64 KB chunk of it, which
    // a kept key would hold in memory for the whole load.
    for (const [svcsaId, id] of await this.stores.advisories.idsBySvcsaIds(trx, unknownIds)) this.advisoryIds.set(svcsaId, id);
    for (const svcsaId of unknownIds) if (!this.advisoryIds.has(svcsaId)) this.advisoryIds.set(svcsaId, undefined);
    const unknownFacts = new Map<string, AdvisoryPackage>();
    for (const { alert: a } of run) {
      const advisoryId = this.advisoryIds.get(a.advisory);
      if (advisoryId === undefined) continue;
      const wanted: AdvisoryPackage = { advisoryId, ecosystem: a.package.ecosystem, packageName: a.package.name };
      const key = advisoryPackageKey(wanted);
      if (!this.facts.has(key)) unknownFacts.set(key, wanted);
    }
    // The store's keys, as for the ids above.
    for (const [key, found] of await this.stores.alerts.advisoryFactsOf(trx, [...unknownFacts.values()])) this.facts.set(key, found);
    for (const key of unknownFacts.keys()) if (!this.facts.has(key)) this.facts.set(key, undefined);
  }

  /** The next free number of a repository: after every number the file or the database uses. */
  private async nextNumber(repoId: number): Promise<number> {
    const next = this.nextNumbers.get(repoId) ?? (await this.stores.alerts.maxNumber(this.ctx.trx, repoId)) + 1;
    this.nextNumbers.set(repoId, next + 1);
    return next;
  }
}
