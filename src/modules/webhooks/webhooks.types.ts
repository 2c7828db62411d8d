// Webhooks' vocabulary (interfaces.md Part 2 "Webhooks").

/**
 * The events a hook may subscribe to. `ping` is sent to every hook when it is created and when
 * someone pings it, whatever its events say (as the original does); naming it is allowed and
 * changes nothing. `*` is every event, those added later included.
 */
export const WEBHOOK_EVENTS = ['dependency_bot_alert', 'security_advisory', 'ping', '*'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** A hook created without `events` gets these (the original's default, `push`, has no counterpart here). */
export const DEFAULT_EVENTS: readonly WebhookEvent[] = ['dependency_bot_alert'];

export const CONTENT_TYPES = ['json', 'form'] as const;
type ContentType = (typeof CONTENT_TYPES)[number];
type InsecureSsl = '0' | '1';

/** What a secret is shown as, when a hook has one: its value never leaves the database. */
export const SECRET_MASK = '********';

/** Whose a hook is, with the names its URLs are built from. */
export type HookOwner =
  | { kind: 'org'; orgId: number; login: string }
  | { kind: 'repo'; repoId: number; owner: string; name: string };

export interface Webhook {
  id: number;
  owner: HookOwner;
  active: boolean;
  events: WebhookEvent[];
  config: {
    url: string;
    contentType: ContentType;
    /** Whether deliveries are signed; the secret itself is never read into a domain object. */
    hasSecret: boolean;
    insecureSsl: InsecureSsl;
  };
  createdAt: string;
  updatedAt: string;
}

export interface WebhookConfigInput {
  url: string;
  contentType: ContentType;
  /** null: deliveries are not signed. */
  secret: string | null;
  insecureSsl: InsecureSsl;
}

export interface WebhookInput {
  active: boolean;
  events: WebhookEvent[];
  config: WebhookConfigInput;
}

/** Changes to a hook: the keys given. `config` keys merge into the hook's; a null secret removes it. */
export interface WebhookPatch {
  active?: boolean;
  events?: WebhookEvent[];
  addEvents?: WebhookEvent[];
  removeEvents?: WebhookEvent[];
  config?: Partial<WebhookConfigInput>;
}

/** One attempt to deliver an event to a hook, as the deliveries list shows it. */
export interface DeliveryAttempt {
  id: number;
  /** The webhook_deliveries row it was an attempt of (what a redelivery copies). */
  deliveryId: number;
  guid: string;
  deliveredAt: string;
  redelivery: boolean;
  /** Seconds. */
  duration: number;
  status: string;
  statusCode: number;
  event: string;
  action: string | null;
  repositoryId: number | null;
  url: string;
}

/** An attempt with what was sent and what came back (bounded by the worker that wrote them). */
export interface DeliveryAttemptDetail extends DeliveryAttempt {
  request: { headers: Record<string, string>; body: string };
  response: { headers: Record<string, string> | null; body: string | null };
}
