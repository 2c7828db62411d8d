import type { Response } from 'express';

// Express sends JSON with a weak ETag and answers If-None-Match with 304 by itself;
// responses vary on the caller (reference.md "Conditional GETs").
export function sendJson(res: Response, status: number, body: unknown): void {
  res.status(status).json(body);
}

export function sendEmpty(res: Response, status: 201 | 204): void {
  res.status(status).end();
}
