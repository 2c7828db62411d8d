import type { ServerResponse } from 'node:http';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { BadRequestError } from '../errors/domain';
import { assertNoTokenInQuery } from './authenticate';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Deeper JSON is refused before any code walks it (no request can exhaust the stack). */
export const MAX_JSON_DEPTH = 64;

/**
 * Bodies are JSON whatever the Content-Type says; primitives are checked per operation.
 * `onBodyRead` is told when the whole body has arrived, before it is parsed.
 */
export function jsonParser(limit: number = MAX_BODY_BYTES, { onBodyRead }: { onBodyRead?: (res: Response) => void } = {}): RequestHandler {
  const verify = onBodyRead === undefined ? undefined : (_req: unknown, res: ServerResponse) => onBodyRead(res as Response);
  return express.json({ limit, strict: false, type: () => true, ...(verify ? { verify } : {}) });
}

function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(node as object)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Refuses JSON nested deeper than MAX_JSON_DEPTH, before any code walks it. */
export function assertJsonDepth(value: unknown): void {
  if (depthOf(value) > MAX_JSON_DEPTH) throw new BadRequestError(`The body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
}

/** GraphQL requests: no token in the query string, no JSON deeper than REST accepts. */
export const graphqlRequestGuard: RequestHandler = (req, _res, next) => {
  assertNoTokenInQuery(req);
  if (req.body !== undefined) assertJsonDepth(req.body);
  next();
};

/** The request body as an object: none is {}; JSON that is not an object, or too deep, is a 400. */
export function jsonBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('Body should be a JSON object');
  assertJsonDepth(body);
  return body as Record<string, unknown>;
}
