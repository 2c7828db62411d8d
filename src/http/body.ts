import type { Request } from 'express';
import { BadRequestError } from '../errors/domain';

/** The request body as an object: none is {}; JSON that is not an object is a 400. */
export function jsonBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('Body should be a JSON object');
  return body as Record<string, unknown>;
}
