import { Router, type Request, type Response } from 'express';
import { principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJson } from '../../http/respond';
import { streamResponse } from '../../http/stream-response';
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
      // The caller and the phrase were checked by export before the first byte (stream-response.ts).
      await streamResponse(res, `${NDJSON}; charset=utf-8`, ndjsonLines(await service.export(principalOf(res), owner, { phrase: q.phrase, include: q.include, order: q.order })));
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

/** Each batch of records as NDJSON lines. */
async function* ndjsonLines(batches: AsyncIterable<AuditRecord[]>): AsyncGenerator<string> {
  for await (const batch of batches) yield batch.map((record) => `${JSON.stringify(serializeAuditRecord(record))}\n`).join('');
}
