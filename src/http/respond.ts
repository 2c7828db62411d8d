import crypto from 'node:crypto';
import type { Response } from 'express';
import { sendAnswer, storeAnswer, type CachedAnswer } from './response-cache';

// JSON answers carry a weak ETag, so a client's If-None-Match gets a 304; responses vary on
// the caller (reference.md "Conditional GETs"). A read's 200 is tagged by its data version,
// caller and URL (response-cache.ts answerTag); anything else by its bytes, as Express would.

export function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/**
 * Sends JSON already serialized: text, UTF-8 bytes, or bytes in parts (written as they are,
 * never joined). A 200 read is kept for the next identical request.
 */
export function sendJsonText(res: Response, status: number, json: string | Buffer | readonly Buffer[]): void {
  const parts = typeof json === 'string' ? [Buffer.from(json, 'utf8')] : Buffer.isBuffer(json) ? [json] : json;
  const answer: CachedAnswer = { parts, length: 0, headers: [], route: null };
  for (const part of parts) answer.length += part.length;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  const tag = status === 200 ? res.locals.answerTag : undefined;
  res.setHeader('ETag', tag ?? bytesTag(parts, answer.length));
  if (status === 200) storeAnswer(res.req, res, answer);
  sendAnswer(res, status, answer);
}

/** The `etag` package's weak form, as Express computes it: length in hex and 27 base64 digits of SHA-1. */
function bytesTag(parts: readonly Buffer[], length: number): string {
  const hash = crypto.createHash('sha1');
  for (const part of parts) hash.update(part);
  return `W/"${length.toString(16)}-${hash.digest('base64').substring(0, 27)}"`;
}

export function sendEmpty(res: Response, status: 201 | 204): void {
  res.status(status).end();
}
