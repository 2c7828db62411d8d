import crypto from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { packageVersion } from '../../cli/paths';
import { NotAcceptableError } from '../../errors/domain';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { streamResponse } from '../../http/stream-response';
import { parseInput } from '../../http/validate';
import { nowTimestamp } from '../../shared/time';
import type { AlertEventScope } from '../dependency-alerts/alerts.types';
import { CYCLONEDX_MEDIA_TYPE, CycloneDxVexWriter } from './cyclonedx-vex';
import { OPENVEX_MEDIA_TYPE, OpenVexWriter } from './openvex';
import { VEX_INPUT, orgPath, repoPath, vexFilters, vexQuery } from './vex.schemas';
import type { VexDocumentInfo, VexEntry, VexWriter } from './vex.types';

const CYCLONEDX_1_6 = `${CYCLONEDX_MEDIA_TYPE}; version=1.6`;

/** The API's own JSON types (Octokit's `application/vnd.github.v3+json`): the default document, as for `application/json`. */
const API_JSON = /^application\/vnd\.(?:github|service)(?:\.[\w-]+)*\+json$/i;

/**
 * The format the request's Accept takes, and the Content-Type to answer with: CycloneDX unless
 * it prefers OpenVEX. A client asking for JSON (`application/json`, or the API's own types, as
 * Octokit does) gets CycloneDX labelled as JSON, which such clients parse; none of these: 406.
 */
function formatFor(req: Request): { writerOf: (info: VexDocumentInfo) => VexWriter; contentType: string } {
  // Offered with its version: an Accept naming another version of CycloneDX takes none.
  const chosen = req.accepts([CYCLONEDX_1_6, OPENVEX_MEDIA_TYPE, 'application/json']);
  if (chosen === OPENVEX_MEDIA_TYPE) return { writerOf: (info) => new OpenVexWriter(info), contentType: OPENVEX_MEDIA_TYPE };
  const cycloneDx = (info: VexDocumentInfo) => new CycloneDxVexWriter(info);
  if (chosen === CYCLONEDX_1_6) return { writerOf: cycloneDx, contentType: CYCLONEDX_1_6 };
  // With no arguments, the types the client accepts, most preferred first.
  if (chosen !== false || (req.accepts() as unknown as string[]).some((type) => API_JSON.test(type))) return { writerOf: cycloneDx, contentType: 'application/json; charset=utf-8' };
  throw new NotAcceptableError(`A VEX document is answered as ${CYCLONEDX_MEDIA_TYPE} (CycloneDX 1.6) or ${OPENVEX_MEDIA_TYPE} (OpenVEX 0.2.0); the Accept header takes neither.`);
}

/** The document's text: the first batch, read before the first byte (a failure there is still an error answer), then the rest as read. */
async function* documentText(writer: VexWriter, first: IteratorResult<VexEntry[]>, rest: AsyncIterator<VexEntry[]>): AsyncGenerator<string> {
  yield writer.start();
  for (let next = first; next.done !== true; next = await rest.next()) yield writer.entries(next.value);
  yield writer.end();
}

async function answer(req: Request, res: Response, target: AlertEventScope): Promise<void> {
  const q = parseInput(vexQuery, req.query, VEX_INPUT);
  const { writerOf, contentType } = formatFor(req);
  const content = await servicesOf(res).vex.content(principalOf(res), target, vexFilters(q));
  const writer = writerOf({
    subject: content.subject, apiBase: apiBaseOf(res), uuid: crypto.randomUUID(), timestamp: nowTimestamp(), tool: { name: 'orgsec', version: packageVersion() },
  });
  const entries = content.entries[Symbol.asyncIterator]();
  await streamResponse(res, contentType, documentText(writer, await entries.next(), entries));
}

/** Issue 39: a repository's or an organization's alerts as a VEX document. */
export function vexRoutes(): Router {
  const router = Router();
  route(router, 'getRepositoryVex', async (req, res) => {
    const p = parseInput(repoPath, req.params, VEX_INPUT);
    await answer(req, res, { kind: 'repo', owner: p.owner, name: p.repo });
  });
  route(router, 'getOrganizationVex', async (req, res) => {
    const p = parseInput(orgPath, req.params, VEX_INPUT);
    await answer(req, res, { kind: 'org', login: p.org });
  });
  return router;
}
