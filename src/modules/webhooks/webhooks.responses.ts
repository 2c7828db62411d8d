import { z } from 'zod';
import { CONTENT_TYPES, SECRET_MASK, WEBHOOK_EVENTS } from './webhooks.types';

// Response schemas of the webhook operations (interfaces.md Part 2 "Webhooks"): the original's
// shapes, the secret shown only as a mask.

export const hookSchema = z.strictObject({
  id: z.int(),
  type: z.enum(['Organization', 'Repository']),
  name: z.literal('web'),
  active: z.boolean(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  config: z.strictObject({
    url: z.string(),
    content_type: z.enum(CONTENT_TYPES),
    secret: z.literal(SECRET_MASK).optional().describe('present, and masked, only when the hook has a secret'),
    insecure_ssl: z.enum(['0', '1']),
  }),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  url: z.string(),
  ping_url: z.string(),
  deliveries_url: z.string(),
});

/** One attempt to deliver an event: automatic retries and redeliveries alike, sharing their delivery's guid. */
export const deliverySchema = z.strictObject({
  id: z.int(),
  guid: z.string().describe('X-Service-Delivery: the same on every attempt of one delivery'),
  delivered_at: z.iso.datetime(),
  redelivery: z.boolean().describe('true for attempts a person asked for'),
  duration: z.number().describe('seconds'),
  status: z.string(),
  status_code: z.int().describe('0 when no answer came'),
  event: z.string(),
  action: z.string().nullable(),
  installation_id: z.null(),
  repository_id: z.int().nullable(),
  url: z.string().describe('where it was sent'),
  throttled_at: z.null(),
});

const payload = z.unknown().describe('the body: parsed when it is JSON, else the text as sent (bounded)');

export const deliveryDetailSchema = deliverySchema.extend({
  request: z.strictObject({ headers: z.record(z.string(), z.string()), payload }),
  response: z.strictObject({ headers: z.record(z.string(), z.string()).nullable().describe('null when no answer came'), payload }),
});
