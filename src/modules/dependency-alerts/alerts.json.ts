import { VersionedCache } from '../../cache/versioned-cache';
import { serializeRepositorySummary, serializeUserSummary } from '../accounts/accounts.serializers';
import type { UserRecord } from '../accounts/accounts.types';
import { serializeAdvisory, serializeVulnerability } from './alerts.serializers';
import type { AlertView } from './alerts.service';

// Alert pages written as JSON bytes, exactly what JSON.stringify(serializeAlert(…)) gives
// (test/integration/alerts-json.test.ts holds them to that), from parts kept per version:
// most of a page is the same advisories, repositories and users again and again. A page is
// the list of its parts, written to the socket as they are: no string building, no copy.

const q = JSON.stringify;
const bytes = (text: string) => Buffer.from(text, 'utf8');
/**
 * Bytes kept in a cache get their own memory: a small Buffer.from is a slice of a shared
 * 8 KiB slab, which a single kept slice would hold on to whole.
 */
function keptBytes(text: string): Buffer {
  const kept = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  kept.write(text, 'utf8');
  return kept;
}
const VULNERABILITY_KEY = bytes(',"security_vulnerability":');
const NULL = bytes('null');
const END = bytes('}');
const OPEN = bytes('[');
const COMMA = bytes(',');
const CLOSE = bytes(']');
const EMPTY = bytes('[]');

/** The versions the views were read under; without them nothing is kept. */
export interface WriteOptions {
  withRepository: boolean;
  reference?: number | undefined;
  data?: number | undefined;
}

/**
 * Fragments of one reference version (advisories, repositories, users), and each alert's parts
 * of one data version: its own fields as bytes, between shared fragments. Anything with
 * URLs is kept per API base.
 */
export class AlertJsonWriter {
  private readonly fragments = new VersionedCache<Buffer>({ maxSize: 16 * 2 ** 20, sizeOf: (json, key) => json.length + key.length });
  // Counted at the alert's own bytes (and what holding them costs): the fragments are shared.
  private readonly alerts = new VersionedCache<Buffer[]>({
    maxSize: 16 * 2 ** 20, sizeOf: (parts) => parts.reduce((n, p, i) => n + (i % 2 === 0 ? p.length + 96 : 16), 128),
  });

  page(base: string, views: readonly AlertView[], options: WriteOptions): Buffer[] {
    if (views.length === 0) return [EMPTY];
    const parts: Buffer[] = [OPEN];
    for (const [i, view] of views.entries()) {
      if (i > 0) parts.push(COMMA);
      parts.push(...this.alertParts(base, view, options));
    }
    parts.push(CLOSE);
    return parts;
  }

  alert(base: string, view: AlertView, options: WriteOptions): Buffer[] {
    return this.alertParts(base, view, options);
  }

  /** Own bytes at even positions, shared fragments at odd ones. */
  private alertParts(base: string, view: AlertView, options: WriteOptions): Buffer[] {
    if (options.data === undefined || options.reference === undefined) return this.build(base, view, options);
    const key = `${base}\n${options.withRepository}\n${view.alert.id}`;
    const hit = this.alerts.get(options.data, key);
    if (hit !== undefined) return hit;
    const parts = this.build(base, view, options);
    this.alerts.set(options.data, key, parts);
    return parts;
  }

  private build(base: string, view: AlertView, { withRepository, reference }: WriteOptions): Buffer[] {
    const { alert, repository } = view;
    const repoPath = `${repository.ownerLogin}/${repository.name}`;
    const vulnerability = view.vulnerability === null ? NULL
      : this.fragment(reference, `v:${alert.advisoryId}:${alert.ecosystem}:${alert.packageName}`, () => q(serializeVulnerability(view.vulnerability!)));
    const head = `{"number":${alert.number},"state":${q(alert.state)},`
      + `"dependency":{"package":{"ecosystem":${q(alert.ecosystem)},"name":${q(alert.packageName)}},"manifest_path":${q(alert.manifestPath)},"scope":${q(alert.scope)},"relationship":${q(alert.relationship)}},`
      + '"security_advisory":';
    const tail = `,"url":${q(`${base}/repos/${repoPath}/dependency-bot/alerts/${alert.number}`)},`
      + `"html_url":${q(`${base}/${repoPath}/security/dependency-bot/${alert.number}`)},`
      + `"created_at":${q(alert.createdAt)},"updated_at":${q(alert.updatedAt)},"dismissed_at":${q(alert.dismissedAt)},`
      + `"dismissed_by":${view.dismissedBy === null ? 'null' : this.user(reference, base, view.dismissedBy)},`
      + `"dismissed_reason":${q(alert.dismissedReason)},"dismissed_comment":${q(alert.dismissedComment)},`
      + `"fixed_at":${q(alert.fixedAt)},"auto_dismissed_at":${q(alert.autoDismissedAt)},`
      + `"assignees":[${view.assignees.map((u) => this.user(reference, base, u)).join(',')}]`
      + (withRepository ? ',"repository":' : '}');
    const parts = [
      keptBytes(head), this.fragment(reference, `a:${view.advisory.id}`, () => q(serializeAdvisory(view.advisory))),
      VULNERABILITY_KEY, vulnerability,
      keptBytes(tail),
    ];
    if (withRepository) parts.push(this.fragment(reference, `r:${base}:${repository.id}`, () => q(serializeRepositorySummary(base, repository))), END);
    return parts;
  }

  /** User summaries are small and sit inside the alert's own bytes. */
  private user(reference: number | undefined, base: string, user: UserRecord): string {
    return this.fragment(reference, `u:${base}:${user.id}`, () => q(serializeUserSummary(base, user))).toString('utf8');
  }

  private fragment(reference: number | undefined, key: string, build: () => string): Buffer {
    if (reference === undefined) return bytes(build());
    const hit = this.fragments.get(reference, key);
    if (hit !== undefined) return hit;
    const json = keptBytes(build());
    this.fragments.set(reference, key, json);
    return json;
  }
}

