import { once } from 'node:events';
import { Router, type Request, type Response } from 'express';
import { principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import { AUDIT_LOG_INPUT, auditLogQuery, enterprisePath, orgPath, type AuditLogQuery } from './audit-log.schemas';
import { serializeAuditRecord } from './audit-log.serializers';
import type { AuditLogOwner } from './audit-log.service';
import type { AuditRecord } from './audit-log.types';

const NDJSON = 'application/x-ndjson';

/** A client that prefers NDJSON to JSON (Accept); `*\/*` and no Accept mean JSON. */
function wantsNdjson(req: Request): boolean {
  return req.accepts(['application/json', 'application/vnd.service+json', NDJSON]) === NDJSON;
}

/** Issue 37: the audit log, a page as JSON or every matching record as NDJSON. */
export function auditLogRoutes(): Router {
  const router = Router();

  const answer = async (req: Request, res: Response, owner: AuditLogOwner) => {
    rejectPageParameter(req.query);
    const q = parseInput(auditLogQuery, req.query, AUDIT_LOG_INPUT);
    const service = servicesOf(res).auditLog;
    if (wantsNdjson(req)) {
      await streamNdjson(res, await service.export(principalOf(res), owner, { phrase: q.phrase, include: q.include, order: q.order }));
      return;
    }
    const page = await service.list(principalOf(res), owner, requestOf(q));
    setCursorLinks(req, res, page);
    sendJson(res, 200, page.items.map(serializeAuditRecord));
  };

  route(router, 'getOrgAuditLog', async (req, res) => answer(req, res, { kind: 'org', login: parseInput(orgPath, req.params, AUDIT_LOG_INPUT).org }));
  route(router, 'getEnterpriseAuditLog', async (req, res) => answer(req, res, { kind: 'enterprise', slug: parseInput(enterprisePath, req.params, AUDIT_LOG_INPUT).enterprise }));
  return router;
}

function requestOf(q: AuditLogQuery) {
  return { phrase: q.phrase, include: q.include, order: q.order, perPage: q.per_page, after: q.after, before: q.before };
}

/**
 * Writes each batch as it is read, waiting for the socket to drain, so memory holds a batch
 * whatever the log's size; a client that goes away stops the walk. The caller and the phrase
 * were checked before the first byte: a failure after it can only cut the stream short.
 */
async function streamNdjson(res: Response, batches: AsyncIterable<AuditRecord[]>): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', `${NDJSON}; charset=utf-8`);
  res.setHeader('Cache-Control', 'no-store');
  res.flushHeaders();
  try {
    for await (const batch of batches) {
      if (res.destroyed) return;
      const text = batch.map((record) => `${JSON.stringify(serializeAuditRecord(record))}\n`).join('');
      if (!res.write(text)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}
