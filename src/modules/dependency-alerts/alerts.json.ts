import { VersionedCache } from '../../cache/versioned-cache';
import { serializeRepositorySummary, serializeUserSummary } from '../accounts/accounts.serializers';
import type { RepositoryRecord, UserRecord } from '../accounts/accounts.types';
import { serializeAdvisory, serializeVulnerability } from './alerts.serializers';
import type { AlertView } from './alerts.service';

// Alert pages written as JSON text, byte for byte what JSON.stringify(serializeAlert(…)) gives
// (test/integration/alerts-json.test.ts holds them to that), from fragments kept per world version:
// most of a page is the same advisories, repositories and users again and again.

const q = JSON.stringify;

/** Fragments of one world version; a fragment with URLs is kept per API base. */
export class AlertJsonWriter {
  private readonly fragments = new VersionedCache<string>({ maxSize: 16 * 2 ** 20, sizeOf: (json, key) => json.length + key.length });

  /** A JSON array of the alerts; `world` (the version the views were read under) enables the fragments. */
  page(base: string, views: readonly AlertView[], options: { withRepository: boolean; world?: number | undefined }): string {
    return `[${views.map((view) => this.alert(base, view, options)).join(',')}]`;
  }

  alert(base: string, view: AlertView, { withRepository, world }: { withRepository: boolean; world?: number | undefined }): string {
    const { alert, repository } = view;
    const repoPath = `${repository.ownerLogin}/${repository.name}`;
    const vulnerability = view.vulnerability === null ? 'null'
      : this.fragment(world, `v:${alert.advisoryId}:${alert.ecosystem}:${alert.packageName}`, () => q(serializeVulnerability(view.vulnerability!)));
    return `{"number":${alert.number},"state":${q(alert.state)},`
      + `"dependency":{"package":{"ecosystem":${q(alert.ecosystem)},"name":${q(alert.packageName)}},"manifest_path":${q(alert.manifestPath)},"scope":${q(alert.scope)},"relationship":${q(alert.relationship)}},`
      + `"security_advisory":${this.fragment(world, `a:${view.advisory.id}`, () => q(serializeAdvisory(view.advisory)))},`
      + `"security_vulnerability":${vulnerability},`
      + `"url":${q(`${base}/repos/${repoPath}/dependency-bot/alerts/${alert.number}`)},`
      + `"html_url":${q(`${base}/${repoPath}/security/dependency-bot/${alert.number}`)},`
      + `"created_at":${q(alert.createdAt)},"updated_at":${q(alert.updatedAt)},"dismissed_at":${q(alert.dismissedAt)},`
      + `"dismissed_by":${view.dismissedBy === null ? 'null' : this.user(world, base, view.dismissedBy)},`
      + `"dismissed_reason":${q(alert.dismissedReason)},"dismissed_comment":${q(alert.dismissedComment)},`
      + `"fixed_at":${q(alert.fixedAt)},"auto_dismissed_at":${q(alert.autoDismissedAt)},`
      + `"assignees":[${view.assignees.map((u) => this.user(world, base, u)).join(',')}]`
      + (withRepository ? `,"repository":${this.repository(world, base, repository)}}` : '}');
  }

  private user(world: number | undefined, base: string, user: UserRecord): string {
    return this.fragment(world, `u:${base}:${user.id}`, () => q(serializeUserSummary(base, user)));
  }

  private repository(world: number | undefined, base: string, repository: RepositoryRecord): string {
    return this.fragment(world, `r:${base}:${repository.id}`, () => q(serializeRepositorySummary(base, repository)));
  }

  private fragment(world: number | undefined, key: string, build: () => string): string {
    if (world === undefined) return build();
    const hit = this.fragments.get(world, key);
    if (hit !== undefined) return hit;
    const json = build();
    this.fragments.set(world, key, json);
    return json;
  }
}
