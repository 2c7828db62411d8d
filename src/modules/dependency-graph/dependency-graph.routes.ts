import express, { Router, type RequestHandler, type Response } from 'express';
import type { Services } from '../../composition';
import { jsonBody, jsonParser } from '../../http/body';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import { nowTimestamp } from '../../shared/time';
import { SNAPSHOT_INPUT, repoPath, snapshotBody } from './dependency-graph.schemas';
import type { SnapshotAdmission, SnapshotRequestWork } from './snapshot-queue';
import { spdxDocument } from './spdx-document';

const dependencyGraphOf = (res: Response) => servicesOf(res).dependencyGraph;

/**
 * S1 before its body is read: the request is snapshot work, not one of the readers snapshots
 * must not make wait, and it is admitted (its time set aside in the snapshots' share) or
 * refused with 503 and Retry-After (snapshot-queue.ts). An admitted request that ends before
 * the route is done with it (a bad body) gives back what it did not use.
 */
export function admitSnapshot(services: Pick<Services, 'snapshotQueue' | 'database' | 'requestsInFlight'>): RequestHandler {
  return (req, res, next) => {
    services.requestsInFlight.exclude(req);
    // Not in the callback that read its request: the requests that arrived beside it (readers
    // waiting in their sockets) are taken first, and are seen when the share is asked.
    setImmediate(() => services.snapshotQueue.admit(services.database.knex).then((admission) => {
      res.locals[ADMISSION] = admission;
      res.once('close', () => {
        const bodyReadAt = res.locals[BODY_READ_AT] as number | undefined;
        admission.finish(bodyReadAt === undefined ? 0 : (performance.now() - bodyReadAt) / 1000, { applied: false });
      });
      next();
    }, next));
  };
}

const ADMISSION = 'snapshotAdmission';
const BODY_READ_AT = 'snapshotBodyReadAt';

const noteBodyRead = (res: Response) => { res.locals[BODY_READ_AT] = performance.now(); };

/** S1's body parser: it notes when the body has arrived, where the request's own work (charged to the snapshots' share) begins. */
export function snapshotBodyParser(limit: number): RequestHandler {
  return jsonParser(limit, { onBodyRead: noteBodyRead });
}

/** An SBOM upload's: the document as text (its own reader parses and checks it), noting when it arrived as S1's does. */
export function sbomBodyParser(limit: number): RequestHandler {
  return express.text({ limit, type: () => true, verify: (_req, res) => noteBodyRead(res as Response) });
}

/** The snapshot work a request admitted by admitSnapshot carries: when its body arrived, and its admission. */
export function snapshotWorkOf(res: Response): SnapshotRequestWork {
  return { startedAt: res.locals[BODY_READ_AT] as number | undefined, admission: res.locals[ADMISSION] as SnapshotAdmission | undefined };
}

/** Interfaces.md Part 2, S1–S2. */
export function dependencyGraphRoutes(): Router {
  const router = Router();

  route(router, 'createDependencySnapshot', async (req, res) => {
    const p = parseInput(repoPath, req.params, SNAPSHOT_INPUT);
    const input = parseInput(snapshotBody, jsonBody(req), SNAPSHOT_INPUT);
    const receipt = await dependencyGraphOf(res).submit(principalOf(res), p.owner, p.repo, input, snapshotWorkOf(res));
    sendJson(res, 201, { id: receipt.id, created_at: receipt.createdAt, result: receipt.result, message: receipt.message });
  });

  route(router, 'getDependencySbom', async (req, res) => {
    const p = parseInput(repoPath, req.params, SNAPSHOT_INPUT);
    const current = await dependencyGraphOf(res).current(principalOf(res), p.owner, p.repo);
    const subject = {
      owner: current.repo.ownerLogin, name: current.repo.name, defaultBranch: current.defaultBranch,
      apiBase: apiBaseOf(res), created: current.updatedAt ?? nowTimestamp(),
    };
    sendJson(res, 200, { sbom: spdxDocument(subject, current.dependencies) });
  });

  return router;
}
