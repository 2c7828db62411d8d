import { Router, type RequestHandler, type Response } from 'express';
import type { Services } from '../../composition';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import { nowTimestamp } from '../../shared/time';
import { SNAPSHOT_INPUT, repoPath, snapshotBody } from './dependency-graph.schemas';
import { spdxDocument } from './spdx-document';

const dependencyGraphOf = (res: Response) => servicesOf(res).dependencyGraph;

/** S1 before its body is read: 503 with Retry-After while the snapshot queue is full (snapshot-queue.ts). */
export function refuseWhenSnapshotQueueFull(services: Pick<Services, 'snapshotQueue' | 'database'>): RequestHandler {
  return (_req, _res, next) => {
    services.snapshotQueue.refusal(services.database.knex).then((refusal) => next(refusal), next);
  };
}

/** Interfaces.md Part 2, S1–S2. */
export function dependencyGraphRoutes(): Router {
  const router = Router();

  route(router, 'createDependencySnapshot', async (req, res) => {
    const p = parseInput(repoPath, req.params, SNAPSHOT_INPUT);
    const input = parseInput(snapshotBody, jsonBody(req), SNAPSHOT_INPUT);
    const receipt = await dependencyGraphOf(res).submit(principalOf(res), p.owner, p.repo, input);
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
