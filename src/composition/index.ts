import { AccessStore } from '../auth/access.store';
import { Authenticator } from '../auth/authenticator';
import { Authorizer } from '../auth/authorizer';
import { cachedTokenLookup } from '../auth/cached-token-lookup';
import { bindOncePerVersions } from '../cache/at-versions';
import { cachedBatch } from '../cache/cached-batch';
import { cachedAtRowVersions } from '../cache/cached-at-row-versions';
import { CacheBudgets } from '../cache/cache-budget';
import { TokenStore } from '../auth/token.store';
import type { Database } from '../database/connection';
import { DataVersionReader, type DataVersions } from '../database/data-version';
import { ResponseCache } from '../http/response-cache';
import { AccountsService } from '../modules/accounts/accounts.service';
import { AccountsStore } from '../modules/accounts/accounts.store';
import { StoreAuthorizedLookups } from '../modules/accounts/authorized-lookups';
import { cachedAuthorizedLookups } from '../modules/accounts/cached-authorized-lookups';
import { AutoTriageService } from '../modules/auto-triage/auto-triage.service';
import { AutoTriageStore } from '../modules/auto-triage/auto-triage.store';
import { StoreTriagePolicies } from '../modules/auto-triage/store-triage-policies';
import { AttestationsService } from '../modules/attestations/attestations.service';
import { AttestationsStore } from '../modules/attestations/attestations.store';
import { AttestationTrust } from '../modules/attestations/attestation-trust';
import { AttestationVerdicts } from '../modules/attestations/attestation-verdicts';
import { AttestationAudit } from '../modules/attestations/attestation-audit';
import { AdvisoriesService } from '../modules/advisories/advisories.service';
import { GlobalAdvisoriesStore } from '../modules/advisories/advisories.store';
import { AdvisoryAlertJsonStore } from '../modules/advisories/advisories.alert-json-store';
import { AdvisoryLookupStore } from '../modules/advisories/advisories.lookup-store';
import { AdvisoriesWorldStore } from '../modules/advisories/advisories.world-store';
import { matchableRanges } from '../modules/advisories/affects-matching';
import { AlertsStore } from '../modules/dependency-alerts/alerts.store';
import { DependencyAlertsService, storeReferences } from '../modules/dependency-alerts/alerts.service';
import type { AlertReferences } from '../modules/dependency-alerts/alerts.types';
import { alertJson, freshFragments, sharedFragments } from '../modules/dependency-alerts/alerts.serializers';
import { cachedAlertJson, cachedFragments } from '../modules/dependency-alerts/alerts.cached-json';
import { DependencyGraphService } from '../modules/dependency-graph/dependency-graph.service';
import { DependencySnapshotsStore } from '../modules/dependency-graph/dependency-snapshots.store';
import { SnapshotQueue, type SnapshotQueueSettings } from '../modules/dependency-graph/snapshot-queue';
import { SnapshotQueueStore } from '../modules/dependency-graph/snapshot-queue.store';
import { SnapshotWorker } from '../modules/dependency-graph/snapshot-worker';
import { RequestsInFlight } from '../http/requests-in-flight';
import type { Logger } from '../logger';
import { OidcService } from '../modules/oidc/oidc.service';
import { OidcStore } from '../modules/oidc/oidc.store';
import { ClaimSourcesStore } from '../modules/oidc-tokens/claim-sources.store';
import { OidcIssuer } from '../modules/oidc-tokens/issuer';
import { OidcTokensService } from '../modules/oidc-tokens/oidc-tokens.service';
import { SigningKeys } from '../modules/oidc-tokens/signing-keys';
import { SigningKeysStore } from '../modules/oidc-tokens/signing-keys.store';
import { OrgRolesService } from '../modules/org-roles/org-roles.service';
import { OrgRolesStore } from '../modules/org-roles/org-roles.store';
import { TokensService } from '../modules/tokens/tokens.service';
import { WorldLoader } from '../modules/world/world.loader';
import { engineAdvisoryReads } from '../modules/alert-engine/advisory-reads';
import { AlertEngine } from '../modules/alert-engine/alert-engine';
import { DependencyIndexStore } from '../modules/alert-engine/dependency-index.store';
import { AlertEngineStore } from '../modules/alert-engine/alert-engine.store';
import type { TriagePolicies } from '../modules/auto-triage/triage-policy';
import { AlertEvents } from '../modules/dependency-alerts/alert-events';
import { lazyObject } from '../shared/lazy';
import { Outbox } from '../modules/webhook-delivery/outbox';
import { AdvisoryImportStore } from '../modules/advisories/advisories.import-store';
import { AdvisoryImporter } from '../modules/advisories/advisory-import';
import { AdvisoryEvents } from '../modules/advisories/advisory-events';
import { EpssImporter } from '../modules/advisories/epss-import';
import type { RateLimitPolicy } from '../rate-limits/rate-limit.policy';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { RateLimitStore } from '../rate-limits/rate-limit.store';
import { WebhooksService } from '../modules/webhooks/webhooks.service';
import { WebhooksStore } from '../modules/webhooks/webhooks.store';
import { AuditLogStore } from '../modules/audit-log/audit-log.store';
import { AuditRecorder } from '../modules/audit-log/audit-recorder';
import { AuditLogService } from '../modules/audit-log/audit-log.service';
import { AuditRetention } from '../modules/audit-log/audit-retention';
import { parsePhrase } from '../modules/audit-log/audit-phrase';
import { VexService } from '../modules/vex/vex.service';
import { SbomUploadService } from '../modules/sbom/sbom-upload.service';
import { DEFAULT_LIVE_EVENTS, EventFeed, type LiveEventSettings } from '../modules/live-events/event-feed';
import { EventFeedStore } from '../modules/live-events/event-feed.store';
import { eventWakeupsOf } from '../modules/live-events/event-wakeups';
import { AlertEventStream } from '../modules/dependency-alerts/alert-event-stream';

export interface ServiceOptions {
  /** The rate limits to hold callers to; false or absent: none (RATE_LIMITS=off). */
  rateLimits?: RateLimitPolicy | false;
  /** Bytes of finished responses cached per instance (RESPONSE_CACHE_MB); 0 turns the response cache off. */
  responseCacheBytes?: number;
  /** Bytes of the data caches together (CACHE_MB), shared out by cache-budget.ts. */
  cacheBytes?: number;
  /** What auto-dismisses alerts; tests give their own, the service its rules and presets. */
  triagePolicies?: TriagePolicies;
  /** OIDC_ISSUER (default: the listening URL plus /oidc, once listening). */
  oidcIssuer?: OidcIssuer;
  /** Milliseconds since the epoch, for OIDC token times and key ages (tests set it; default Date.now). */
  clock?: () => number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: hooks may point at loopback, private and link-local addresses (default off). */
  webhookAllowPrivateTargets?: boolean;
  /** ATTESTATION_VERIFICATION and ATTESTATION_TRUSTED_ROOTS (default: signature mode, the bundled public-good root). */
  attestationTrust?: AttestationTrust;
  /** SNAPSHOT_WORKER_SHARE and SNAPSHOT_QUEUE_MAX_DELAY; the queue works only where a worker is started (main.ts). */
  snapshotQueue?: SnapshotQueueSettings;
  /** SUBSCRIPTION_POLL_MS and SUBSCRIPTION_LISTEN: how live subscribers learn of new events (src/modules/live-events). */
  liveEvents?: LiveEventSettings;
}


const DEFAULT_RESPONSE_CACHE_BYTES = 32 * 2 ** 20;
const DEFAULT_CACHE_BYTES = 64 * 2 ** 20;

/**
 * What alerts refer to, kept per version of the rows they come from: each alert's own version
 * for assignee lists (a write to one alert empties nothing else), `reference` for advisories,
 * their stored JSON, repositories and users. (Alert rows are read only for the alerts whose
 * JSON is not kept: alerts.cached-json.ts.)
 */
function cachedReferences(references: AlertReferences, budgets: CacheBudgets) {
  const assigneesAt = cachedAtRowVersions(references.assigneesAt, { versionOf: (assignees) => assignees.version, budget: budgets.of('alert assignees') });
  const advisoriesByIds = cachedBatch(references.advisoriesByIds, { version: 'reference', budget: budgets.of('advisories') });
  const advisoryJsonByIds = cachedBatch(references.advisoryJsonByIds, { version: 'reference', budget: budgets.of('advisory json') });
  const repositoriesByIds = cachedBatch(references.repositoriesByIds, { version: 'reference', budget: budgets.of('repositories') });
  const usersByIds = cachedBatch(references.usersByIds, { version: 'reference', budget: budgets.of('users') });
  return (versions: DataVersions | undefined): AlertReferences => ({
    // Bound to no versions (a write, a command) every look-up reads the database.
    assigneesAt: versions === undefined ? references.assigneesAt : assigneesAt,
    advisoriesByIds: advisoriesByIds(versions),
    advisoryJsonByIds: advisoryJsonByIds(versions),
    repositoriesByIds: repositoriesByIds(versions),
    usersByIds: usersByIds(versions),
  });
}

/**
 * The one place that constructs stores and services, and the caches wrapped around them.
 * Each cache is built once and bound per request to the data versions the request read
 * (`at`): the services of a request see only those, and take (principal, input) and nothing
 * else. Bound to no versions, for writes and commands, every service reads the database.
 */
export function createServices(database: Database, options: ServiceOptions = {}) {
  const db = database.knex;
  const caches = new CacheBudgets(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const clock = options.clock ?? Date.now;
  // Every write path records its changes through this one recorder (src/modules/audit-log).
  const auditLogStore = new AuditLogStore();
  const audit = new AuditRecorder(auditLogStore, clock);
  const accounts = new AccountsStore();
  const access = new AccessStore();
  const tokenStore = new TokenStore();
  const roles = new OrgRolesStore();
  const oidcStore = new OidcStore();
  const authorizer = new Authorizer({ access });
  const tokens = new TokensService({ db, accounts, tokens: tokenStore, audit });
  const attestationStore = new AttestationsStore();
  const attestationVerdicts = new AttestationVerdicts(options.attestationTrust ?? new AttestationTrust());
  const advisoryStore = new AdvisoryLookupStore();
  const alertStore = new AlertsStore({ advisories: advisoryStore });
  const snapshotStore = new DependencySnapshotsStore();
  const snapshotQueueStore = new SnapshotQueueStore();
  const requestsInFlight = new RequestsInFlight();
  const snapshotQueue = new SnapshotQueue({ store: snapshotQueueStore, requests: requestsInFlight }, options.snapshotQueue);
  const autoTriageStore = new AutoTriageStore();
  const triagePolicies = new StoreTriagePolicies({ store: autoTriageStore });
  const globalAdvisoryStore = new GlobalAdvisoriesStore();
  const outbox = new Outbox();
  const alertEvents = new AlertEvents(alertStore, storeReferences({ alerts: alertStore, advisories: advisoryStore, accounts }), outbox, audit);
  const versionReader = new DataVersionReader(database);
  const alertEngine = new AlertEngine({
    snapshots: snapshotStore,
    dependencyIndex: new DependencyIndexStore(),
    store: new AlertEngineStore(),
    ...engineAdvisoryReads({ advisories: advisoryStore, global: globalAdvisoryStore }, () => versionReader.newestRead()?.reference, {
      traits: caches.of('engine advisory traits'), vulnerabilities: caches.of('engine vulnerability rows'), packages: caches.of('engine package rows'), ranges: caches.of('engine ranges'),
    }),
    events: alertEvents,
    policies: options.triagePolicies ?? triagePolicies,
  });
  const advisoryAlertJson = new AdvisoryAlertJsonStore({ records: advisoryStore });
  const advisoryImportStore = new AdvisoryImportStore({
    alerts: alertStore, reevaluation: alertEngine, events: new AdvisoryEvents({ advisories: advisoryStore, alerts: alertStore, outbox }), alertJson: advisoryAlertJson,
  });
  const webhooksStore = new WebhooksStore();
  // Live subscribers read the outbox through one feed per instance, woken by this instance's commits and, on PostgreSQL, by NOTIFY.
  const liveEvents = options.liveEvents ?? DEFAULT_LIVE_EVENTS;
  const eventFeed = new EventFeed({ db, store: new EventFeedStore(), wakeups: eventWakeupsOf(database, liveEvents.listen) }, { pollMs: liveEvents.pollMs });
  outbox.onEvents(() => eventFeed.wake());
  database.onClose(() => void eventFeed.close());

  const tokensAt = cachedTokenLookup(tokenStore, caches.of('tokens'));
  const lookupsAt = cachedAuthorizedLookups(new StoreAuthorizedLookups({ accounts, authorizer }), caches.of('authorization decisions'));
  const referencesAt = cachedReferences(storeReferences({ alerts: alertStore, advisories: advisoryStore, accounts }), caches);
  const fragmentsAt = cachedFragments(freshFragments, caches.of('json fragments'));
  const alertJsonAt = cachedAlertJson(
    (versions) => alertJson(alertStore, referencesAt(versions), fragmentsAt(versions)), (versions) => sharedFragments(referencesAt(versions), fragmentsAt(versions)), caches.of('alert json'),
  );
  // Ranges compiled once per reference version: a look-up of popular packages parses no event again.
  const matchableRangesAt = cachedBatch(matchableRanges((trx, ids) => globalAdvisoryStore.rangesByIds(trx, ids)), { version: 'reference', budget: caches.of('advisory ranges') });
  // OIDC tokens: a repository's claim sources per data version, the signing key in memory (signing-keys.ts).
  const claimSourcesStore = new ClaimSourcesStore();
  const claimSourcesAt = cachedBatch((trx, ids) => claimSourcesStore.byRepoIds(trx, ids), { version: 'data', budget: caches.of('oidc claim sources') });
  const oidcIssuer = options.oidcIssuer ?? new OidcIssuer();
  const oidcSigningKeys = new SigningKeys({ db, store: new SigningKeysStore(), clock, audit });

  /** What a request uses, bound to its versions; each service built when first used. */
  const at = bindOncePerVersions((versions) => {
    // Bound once for all the services of these versions that use them.
    const bound = lazyObject({ lookups: () => lookupsAt(versions), references: () => referencesAt(versions) });
    const services = lazyObject({
      authenticator: () => new Authenticator({ db, tokens: tokensAt(versions) }),
      accounts: () => new AccountsService({ db, accounts, lookups: bound.lookups }),
      orgRoles: () => new OrgRolesService({ db, accounts, access, roles, lookups: bound.lookups, audit }),
      oidc: () => new OidcService({ db, lookups: bound.lookups, oidc: oidcStore, audit }),
      oidcTokens: () => new OidcTokensService({
        db, lookups: bound.lookups, sources: claimSourcesAt(versions), keys: oidcSigningKeys, issuer: oidcIssuer, clock, versions,
      }),
      attestations: () => new AttestationsService({ db, lookups: bound.lookups, attestations: attestationStore, accounts, verdicts: attestationVerdicts, audit }),
      dependencyAlerts: () => new DependencyAlertsService({
        db, lookups: bound.lookups, alerts: alertStore, accounts, access, references: bound.references, events: alertEvents, engine: alertEngine,
        snapshots: snapshotStore, rangesByIds: matchableRangesAt(versions),
      }),
      dependencyGraph: (): DependencyGraphService => new DependencyGraphService({
        db, lookups: bound.lookups, snapshots: snapshotStore, alerts: alertEngine, queue: snapshotQueue, queueStore: snapshotQueueStore, audit,
      }),
      vex: (): VexService => new VexService({ alerts: services.dependencyAlerts }),
      sbomUploads: (): SbomUploadService => new SbomUploadService({ db, lookups: bound.lookups, snapshots: snapshotStore, dependencyGraph: services.dependencyGraph, accounts, alerts: alertStore }),
      autoTriage: () => new AutoTriageService({ db, lookups: bound.lookups, store: autoTriageStore, reevaluation: alertEngine, audit }),
      /** The REST alert JSON: whole alerts per alert version, around fragments per reference version. */
      alertJson: () => alertJsonAt(versions),
      // Whole advisories come from the alerts' cached look-up: one copy per reference version for both.
      advisories: () => new AdvisoriesService({
        db, authorizer, advisories: globalAdvisoryStore, advisoriesByIds: bound.references.advisoriesByIds, matchableRangesByIds: matchableRangesAt(versions),
      }),
      webhooks: () => new WebhooksService({ db, lookups: bound.lookups, store: webhooksStore, allowPrivateTargets: options.webhookAllowPrivateTargets ?? false, queued: () => outbox.notify(), audit }),
      auditLog: () => new AuditLogService({ db, lookups: bound.lookups, store: auditLogStore }),
    });
    return services;
  });

  const alertEventStream = new AlertEventStream({
    db, feed: eventFeed, alerts: alertStore, versions: () => versionReader.read(),
    at: (versions) => ({ dependencyAlerts: at(versions).dependencyAlerts, references: referencesAt(versions) }),
  });

  return {
    database,
    versions: versionReader,
    /** Live alert events for GraphQL subscriptions (graphql/websocket.ts). */
    alertEventStream,
    responseCache: new ResponseCache(options.responseCacheBytes ?? DEFAULT_RESPONSE_CACHE_BYTES, caches),
    /** Advisories' stored JSON (advisory-alert-json.ts): start-up writes what is stale. */
    advisoryAlertJson,
    /** Every memory cache's budget and what it holds (/metrics). */
    caches,
    at,
    authorizer,
    tokens,
    rateLimiter: options.rateLimits ? new RateLimiter({ db, store: new RateLimitStore(), policy: options.rateLimits }) : undefined,
    /** Auto-triage's answer to the alert engine: which alerts a rule or preset dismisses, per repository. */
    triagePolicies,
    world: new WorldLoader({
      db, accounts, roles, tokens, attestations: attestationStore, alerts: alertStore, advisories: new AdvisoriesWorldStore({ alertJson: advisoryAlertJson }), snapshots: snapshotStore, snapshotQueue: snapshotQueueStore, autoTriage: autoTriageStore, alertEngine,
      webhooks: webhooksStore, auditLog: auditLogStore, audit,
    }),
    advisoryImport: new AdvisoryImporter({ db, store: advisoryImportStore, audit }),
    epssImport: new EpssImporter({ db, store: advisoryImportStore, audit }),
    /** The alert engine: what a rule or preset change calls (AlertReevaluation.repositories). */
    alertEngine,
    /** The OIDC issuer and its signing keys (the discovery routes, `orgsec oidc rotate-key`). */
    oidcIssuer,
    oidcSigningKeys,
    /** The requests this instance is answering (app.ts counts them; the snapshot queue reads them). */
    requestsInFlight,
    /** When snapshots are applied at once, queued or refused (snapshot-queue.ts). */
    snapshotQueue,
    /** The worker that applies queued snapshots on this instance's event loop, not started. */
    createSnapshotWorker: (logger: Logger) => new SnapshotWorker({
      db, queue: snapshotQueue, store: snapshotQueueStore, snapshots: snapshotStore, alerts: alertEngine, logger,
    }),
    /** `orgsec audit-log export`: every record the phrase matches, of no organization too, in batches (no caller: the operator's). */
    auditLogRecords: (phrase: string | undefined, order: 'asc' | 'desc') => auditLogStore.batches(db, { kind: 'all' }, parsePhrase(phrase), order),
    /** Deletes audit-log records past AUDIT_LOG_RETENTION_DAYS (every instance, hourly), not started. */
    createAuditRetention: (logger: Logger, retentionDays: number) => new AuditRetention({ db, store: auditLogStore, logger, retentionDays, clock }),
    /** Events and the webhook deliveries they queue; tells the instance's delivery worker. */
    outbox,
    /** `orgsec attestations verify`: stored attestations verified fully against the roots in force. */
    attestationAudit: new AttestationAudit({ db, accounts, attestations: attestationStore, trust: attestationVerdicts.trust }),
  };
}

export type Services = ReturnType<typeof createServices>;


/** The services one request uses, bound to the data versions it read (none for a write). */
export type RequestServices = ReturnType<Services['at']>;
