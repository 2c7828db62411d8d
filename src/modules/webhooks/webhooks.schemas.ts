import { z } from 'zod';
import { MAX_CURSOR_LENGTH, DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../../http/pagination';
import { integerString, pathName } from '../../http/params';
import type { InputContext } from '../../http/validate';
import { storableText } from '../../shared/storable-text';
import { CONTENT_TYPES, DEFAULT_EVENTS, WEBHOOK_EVENTS, type WebhookConfigInput, type WebhookEvent, type WebhookInput, type WebhookPatch } from './webhooks.types';

// Request schemas of the webhook operations (interfaces.md Part 2 "Webhooks"), with the
// original's bodies: every key checked, unknown ones refused, so a 422 names the field and
// nothing is stored. Where a hook may send (target-policy.ts) is the service's check: it
// depends on WEBHOOK_ALLOW_PRIVATE_TARGETS.

export const HOOK_INPUT: InputContext = { resource: 'Hook', invalidStatus: 422 };

/** Hooks per organization or repository (the original's limit per event and target): the lists need no pages. */
export const MAX_HOOKS = 20;
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 255;

export const orgPath = z.object({ org: pathName });
export const repoPath = z.object({ owner: pathName, repo: pathName });
const id = integerString({ min: 1 });
export const orgHookPath = orgPath.extend({ hook_id: id });
export const repoHookPath = repoPath.extend({ hook_id: id });
/** Delivery attempt ids are 64-bit (bigIncrements): any whole number JavaScript holds exactly. */
const deliveryId = integerString({ min: 1, max: Number.MAX_SAFE_INTEGER });
export const orgDeliveryPath = orgHookPath.extend({ delivery_id: deliveryId });
export const repoDeliveryPath = repoHookPath.extend({ delivery_id: deliveryId });

/** The deliveries list: the original's `cursor` (from the Link header) and `status`. */
export const deliveriesQuery = z.object({
  per_page: integerString({ min: 1, max: MAX_PER_PAGE }).default(DEFAULT_PER_PAGE),
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
  status: z.enum(['success', 'failure']).optional().describe('success: answered 2xx; failure: anything else'),
});

const hookUrl = z.string().max(MAX_URL_LENGTH).refine((u) => URL.canParse(u), 'must be an absolute URL such as https://hooks.example.com/orgsec');
const contentType = z.enum(CONTENT_TYPES);
// The original takes "0"/"1" or the numbers 0/1; it always answers with the string.
const insecureSsl = z.union([z.enum(['0', '1']), z.literal(0), z.literal(1)]).transform((v) => String(v) as '0' | '1');
/** An empty string (or null) means no secret: deliveries are not signed. */
const secret = storableText().max(MAX_SECRET_LENGTH).nullable();
const events = z.array(z.enum(WEBHOOK_EVENTS)).max(20);

const unique = (list: readonly WebhookEvent[]): WebhookEvent[] => [...new Set(list)];
const secretOf = (s: string | null | undefined): string | null => (s === undefined || s === null || s === '' ? null : s);

const createConfig = z.strictObject({
  url: hookUrl,
  content_type: contentType.optional(),
  secret: secret.optional(),
  insecure_ssl: insecureSsl.optional(),
});
const patchConfig = z.strictObject({
  url: hookUrl.optional(),
  content_type: contentType.optional(),
  secret: secret.optional(),
  insecure_ssl: insecureSsl.optional(),
});

function configInputOf(c: z.output<typeof createConfig>): WebhookConfigInput {
  return { url: c.url, contentType: c.content_type ?? 'json', secret: secretOf(c.secret), insecureSsl: c.insecure_ssl ?? '0' };
}

function configPatchOf(c: z.output<typeof patchConfig>): Partial<WebhookConfigInput> {
  return {
    ...(c.url !== undefined ? { url: c.url } : {}),
    ...(c.content_type !== undefined ? { contentType: c.content_type } : {}),
    ...(c.secret !== undefined ? { secret: secretOf(c.secret) } : {}),
    ...(c.insecure_ssl !== undefined ? { insecureSsl: c.insecure_ssl } : {}),
  };
}

/** A created hook's domain input: active, and DEFAULT_EVENTS, unless given. */
export function webhookInputOf(b: { config: z.output<typeof createConfig>; events?: WebhookEvent[] | undefined; active?: boolean | undefined }): WebhookInput {
  return { active: b.active ?? true, events: unique(b.events ?? DEFAULT_EVENTS), config: configInputOf(b.config) };
}

/** What both levels' create bodies share; `name` is required by the organization one, as in the original. */
const createShape = { config: createConfig, events: events.optional(), active: z.boolean().optional() };
export const orgHookBody = z.strictObject({ name: z.literal('web'), ...createShape }).transform(webhookInputOf);
export const repoHookBody = z.strictObject({ name: z.literal('web').optional(), ...createShape }).transform(webhookInputOf);
export const hookConfigSchema = createConfig;

function patchOf(b: { config?: z.output<typeof patchConfig> | undefined; events?: WebhookEvent[] | undefined; add_events?: WebhookEvent[] | undefined; remove_events?: WebhookEvent[] | undefined; active?: boolean | undefined }): WebhookPatch {
  return {
    ...(b.active !== undefined ? { active: b.active } : {}),
    ...(b.events !== undefined ? { events: unique(b.events) } : {}),
    ...(b.add_events !== undefined ? { addEvents: unique(b.add_events) } : {}),
    ...(b.remove_events !== undefined ? { removeEvents: unique(b.remove_events) } : {}),
    ...(b.config !== undefined ? { config: configPatchOf(b.config) } : {}),
  };
}

const patchShape = { config: patchConfig.optional(), events: events.optional(), active: z.boolean().optional() };
export const orgHookPatchBody = z.strictObject({ name: z.literal('web').optional(), ...patchShape }).transform(patchOf);
/** The repository PATCH also takes the original's add_events and remove_events. */
export const repoHookPatchBody = z.strictObject({ ...patchShape, add_events: events.optional(), remove_events: events.optional() }).transform(patchOf);
