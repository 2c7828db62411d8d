import type { Executor } from '../../database/transaction';
import { JsonFragment, toJsonParts } from '../../shared/json-fragments';
import { serializeRepositorySummary, serializeUserSummary } from '../accounts/accounts.serializers';
import type { RepositoryRecord, UserRecord } from '../accounts/accounts.types';
import type { BatchLookup } from '../../cache/cached-batch';
import { alertJsonViews, vulnerabilityOf } from './alert-views';
import type { AlertJsonView, AlertKey, AlertRecord, AlertReferences } from './alerts.types';
import { htmlUrls } from '../../shared/html-urls';

// REST shapes of spec §2.8 and §2.10 with reference.md's additions (the advisory's, §2.9, is
// advisories.serializers.ts's, stored with the advisory: advisory-alert-json.ts); every field
// present, null when empty. The one place that knows them: what many alerts share comes in as
// fragments, serialized once (the advisory's when it was written; repositories and users
// cached, composition/index.ts).

/** The serialized accounts alerts share, spliced into each alert as they are. */
export interface AlertFragments {
  repository(base: string, repository: RepositoryRecord): JsonFragment;
  user(base: string, user: UserRecord): JsonFragment;
}

/** Every fragment serialized afresh. */
export const freshFragments: AlertFragments = {
  repository: (base, repository) => JsonFragment.of(serializeRepositorySummary(base, repository)),
  user: (base, user) => JsonFragment.of(serializeUserSummary(base, user)),
};

/** An alert's own URLs. */
export function alertUrls(base: string, view: { alert: Pick<AlertRecord, 'number'>; repository: Pick<RepositoryRecord, 'ownerLogin' | 'name'> }) {
  const { alert, repository } = view;
  const repoPath = `${repository.ownerLogin}/${repository.name}`;
  return {
    url: `${base}/repos/${repoPath}/dependency-bot/alerts/${alert.number}`,
    html_url: htmlUrls.alert(base, repository.ownerLogin, repository.name, alert.number),
  };
}

/** §2.8 dependency alert; `repository` only in enterprise and organization lists. */
export function serializeAlert(base: string, view: AlertJsonView, options: { withRepository: boolean }, fragments: AlertFragments) {
  const { alert, repository } = view;
  const body = {
    number: alert.number,
    state: alert.state,
    dependency: {
      package: { ecosystem: alert.ecosystem, name: alert.packageName },
      manifest_path: alert.manifestPath,
      scope: alert.scope,
      relationship: alert.relationship,
    },
    security_advisory: view.advisory.advisory,
    security_vulnerability: vulnerabilityOf(alert, view.advisory.vulnerabilities)?.json ?? null,
    ...alertUrls(base, view),
    created_at: alert.createdAt,
    updated_at: alert.updatedAt,
    dismissed_at: alert.dismissedAt,
    dismissed_by: view.dismissedBy === null ? null : fragments.user(base, view.dismissedBy),
    dismissed_reason: alert.dismissedReason,
    dismissed_comment: alert.dismissedComment,
    fixed_at: alert.fixedAt,
    auto_dismissed_at: alert.autoDismissedAt,
    assignees: view.assignees.map((u) => fragments.user(base, u)),
  };
  return options.withRepository ? { ...body, repository: fragments.repository(base, repository) } : body;
}

/** The kinds of fragment alerts share. */
export const SHARED_KINDS = ['advisory', 'vulnerability', 'repository', 'user'] as const;
export type SharedKind = (typeof SHARED_KINDS)[number];

/**
 * A fragment an alert shares with others (json-fragments.ts), named by what it shows, to be
 * found again: the advisory `id`, its `index`-th vulnerability, the repository or user `id`.
 */
export interface SharedFragmentRef {
  kind: SharedKind;
  id: number;
  /** The vulnerability's position among the advisory's; 0 for the other kinds. */
  index: number;
}

/** One alert's JSON in parts (json-fragments.ts): its own bytes between shared fragments. */
export interface AlertJsonParts {
  id: number;
  /** The version of the alert it was written from. */
  version: number;
  parts: Buffer[];
}

/** An alert's JSON as just written: what each shared fragment among `parts` is, by position (what a cache keeps in its place). */
export interface BuiltAlertJson extends AlertJsonParts {
  shared: ReadonlyMap<number, SharedFragmentRef>;
}

/**
 * Alerts' JSON, in the order of the keys (an alert deleted since left out), their rows and
 * what they refer to loaded in `db` (the request's, or a write's transaction).
 */
export type AlertJson<T extends AlertJsonParts = AlertJsonParts> = (db: Executor, base: string, keys: readonly AlertKey[], options: { withRepository: boolean }) => Promise<T[]>;

/** Alerts written by `serializeAlert` from what `references` load, with the given fragments. */
export function alertJson(rows: AlertRows, references: AlertReferences, fragments: AlertFragments): AlertJson<BuiltAlertJson> {
  return async (db, base, keys, options) => {
    const views = await alertJsonViews(db, references, await rows.rowsAt(db, keys));
    return views.map((view) => {
      // Each fragment the alert is written with, by its bytes (what toJsonParts places).
      const refs = new Map<Buffer, SharedFragmentRef>();
      const advisoryId = view.alert.advisoryId;
      refs.set(view.advisory.advisory.bytes, { kind: 'advisory', id: advisoryId, index: 0 });
      view.advisory.vulnerabilities.forEach((v, index) => refs.set(v.json.bytes, { kind: 'vulnerability', id: advisoryId, index }));
      const noted = (fragment: JsonFragment, ref: SharedFragmentRef) => (refs.set(fragment.bytes, ref), fragment);
      const noting: AlertFragments = {
        repository: (b, repository) => noted(fragments.repository(b, repository), { kind: 'repository', id: repository.id, index: 0 }),
        user: (b, user) => noted(fragments.user(b, user), { kind: 'user', id: user.id, index: 0 }),
      };
      const parts = toJsonParts(serializeAlert(base, view, options, noting));
      const shared = new Map<number, SharedFragmentRef>();
      for (let i = 1; i < parts.length; i += 2) {
        const ref = refs.get(parts[i]!);
        if (ref !== undefined) shared.set(i, ref);
      }
      return { id: view.alert.id, version: view.alert.version, parts, shared };
    });
  };
}

/** The ids of the records shared fragments show, by kind (a vulnerability's: its advisory's). */
export interface SharedIds {
  advisory: Set<number>;
  repository: Set<number>;
  user: Set<number>;
}

/** Shared fragments found again, a batch per kind: the bytes of each, undefined where one is gone. */
export type SharedFragments = (db: Executor, base: string, ids: SharedIds) => Promise<(ref: SharedFragmentRef) => Buffer | undefined>;

/** Shared fragments from what `references` load (cached look-ups: composition/index.ts), written by `fragments`. */
export function sharedFragments(references: AlertReferences, fragments: AlertFragments): SharedFragments {
  return async (db, base, ids) => {
    const byIds = async <V>(lookup: BatchLookup<V>, wanted: Set<number>) => (wanted.size === 0 ? new Map<number, V>() : lookup(db, [...wanted]));
    // In sequence, as alert-views.ts loads them.
    const advisories = await byIds(references.advisoryJsonByIds, ids.advisory);
    const repositories = await byIds(references.repositoriesByIds, ids.repository);
    const users = await byIds(references.usersByIds, ids.user);
    return ({ kind, id, index }) => {
      switch (kind) {
        case 'advisory': return advisories.get(id)?.advisory.bytes;
        case 'vulnerability': return advisories.get(id)?.vulnerabilities[index]?.json.bytes;
        case 'repository': {
          const repository = repositories.get(id);
          return repository && fragments.repository(base, repository).bytes;
        }
        case 'user': {
          const user = users.get(id);
          return user && fragments.user(base, user).bytes;
        }
      }
    };
  };
}

/** Alert rows by key (the alerts store). */
export interface AlertRows {
  rowsAt(db: Executor, keys: ReadonlyArray<Pick<AlertKey, 'id'>>): Promise<AlertRecord[]>;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** A page of alerts: the list of its alerts' parts, written to the socket as they are (no copy). */
export function alertPageJson(alerts: readonly AlertJsonParts[]): Buffer[] {
  const parts: Buffer[] = [OPEN];
  for (const [i, alert] of alerts.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(...alert.parts);
  }
  parts.push(CLOSE);
  return parts;
}
