import crypto from 'node:crypto';
import type { Response } from 'express';
import { readEtag } from './response-cache';
import { sendResponse, type CachedResponse } from './send-response';

// Every body orgsec sends carries a weak ETag, so a client's If-None-Match gets a 304; responses
// vary on the caller (reference.md "Conditional GETs"). The ETag is chosen here, and only here: a
// read's 200 by its data version, caller and URL (response-cache.ts readEtag); anything
// else by its bytes, as Express would. The 304 is conditional.ts's decision (send-response.ts).
// Only Apollo's answers are sent by Express (res.send), with its own ETag and 304.

export function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/**
 * Sends JSON already serialized: text, UTF-8 bytes, or bytes in parts (written as they are,
 * never joined). A read's 200 goes into the response cache for the next identical request.
 */
export function sendJsonText(res: Response, status: number, json: string | Buffer | readonly Buffer[]): void {
  const parts = typeof json === 'string' ? [Buffer.from(json, 'utf8')] : Buffer.isBuffer(json) ? [json] : json;
  const response: CachedResponse = { parts, length: 0, headers: [], route: null };
  for (const part of parts) response.length += part.length;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  const readKey = status === 200 ? res.locals.readKey : undefined;
  if (readKey === undefined) {
    res.setHeader('ETag', bytesEtag(parts, response.length));
  } else {
    const version = res.locals.versions!.data;
    res.setHeader('ETag', readEtag(version, readKey));
    // Recorded when the response cache's gate offered this request the cache (response-cache-gate.ts restReads).
    res.locals.recordRead?.(readKey, response);
  }
  sendResponse(res, status, response);
}

/** A body that is not JSON (a page, a script, the metrics text), as Express's res.send would send it, but for the 304 rule. */
export function sendText(res: Response, status: number, contentType: string, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  res.setHeader('Content-Type', contentType);
  res.setHeader('ETag', bytesEtag([bytes], bytes.length));
  sendResponse(res, status, { parts: [bytes], length: bytes.length, headers: [], route: null });
}

/** The `etag` package's weak form, as Express computes it: length in hex and 27 base64 digits of SHA-1. */
function bytesEtag(parts: readonly Buffer[], length: number): string {
  const hash = crypto.createHash('sha1');
  for (const part of parts) hash.update(part);
  return `W/"${length.toString(16)}-${hash.digest('base64').substring(0, 27)}"`;
}

export function sendEmpty(res: Response, status: 201 | 202 | 204): void {
  res.status(status).end();
}
