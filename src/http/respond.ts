import type { Response } from 'express';
import { sendAnswer, storeAnswer } from './response-cache';

// JSON answers carry a weak ETag of their bytes (Express's own), so a client's If-None-Match
// gets a 304; responses vary on the caller (reference.md "Conditional GETs").

export function sendJson(res: Response, status: number, body: unknown): void {
  sendJsonText(res, status, JSON.stringify(body));
}

/** Sends JSON already serialized (text or UTF-8 bytes); a 200 read is kept for the next identical request. */
export function sendJsonText(res: Response, status: number, json: string | Buffer): void {
  const body = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
  const etagOf = res.app.get('etag fn') as (body: Buffer) => string;
  const answer = { body, etag: etagOf(body), link: res.getHeader('Link') as string | undefined };
  if (status === 200) storeAnswer(res, answer);
  sendAnswer(res, status, answer);
}

export function sendEmpty(res: Response, status: 201 | 204): void {
  res.status(status).end();
}
