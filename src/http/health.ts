import { Router } from 'express';
import type { Database } from '../database/connection';
import { pendingMigrations } from '../database/migrate';
import { sendJson } from './respond';

/** A probe must answer before the orchestrator's own timeout, even when the pool is stuck. */
export const READINESS_TIMEOUT_MS = 1_500;

function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** What keeps the instance from serving: null when it is ready. */
async function notReadyReason(database: Database): Promise<string | null> {
  try {
    await withinTimeout(database.knex.raw('select 1'), READINESS_TIMEOUT_MS);
  } catch (error) {
    return `database unreachable: ${(error as Error).message}`;
  }
  const pending = await withinTimeout(pendingMigrations(database), READINESS_TIMEOUT_MS);
  if (pending.length === 0) return null;
  return `${pending.length} migration${pending.length === 1 ? '' : 's'} pending: ${pending.join(', ')}`;
}

/**
 * /healthz: the process is up and answering (no database access, so a slow database
 * never gets a live instance restarted). /readyz: the database answers and every
 * migration of this build has run, else 503 naming what is wrong.
 * Outside the API: no authentication, no rate limit.
 */
export function healthRoutes(database: Database): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    sendJson(res, 200, { status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    let reason: string | null;
    try {
      reason = await notReadyReason(database);
    } catch (error) {
      reason = `migrations could not be checked: ${(error as Error).message}`;
    }
    if (reason === null) sendJson(res, 200, { status: 'ready' });
    else sendJson(res, 503, { status: 'unavailable', reason });
  });
  return router;
}
