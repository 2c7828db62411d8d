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

/** How deep `value` nests, walked without recursion and without allocating per value (a 2,000-package snapshot is walked on every submission). */
function depthOf(value: unknown): number {
  const nodes: object[] = [];
  const depths: number[] = [];
  let deepest = 0;
  const visit = (child: unknown, depth: number) => {
    if (child === null || typeof child !== 'object') return;
    nodes.push(child);
    depths.push(depth);
  };
  visit(value, 1);
  while (nodes.length > 0) {
    const node = nodes.pop()! as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) visit(node[i], depth + 1);
    else for (const key in node) visit(node[key], depth + 1);
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
