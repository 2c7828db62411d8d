import { Router, type Response } from 'express';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { rejectPageParameter } from '../../http/pagination';
import { sendJsonText } from '../../http/respond';
import { parseInput } from '../../http/validate';
import { ADVISORY_INPUT, ADVISORY_QUERY_INPUT, advisoryListRequest, advisoryPath } from './advisories.schemas';
import { listQueryOf, setAdvisoryLinks } from './advisories.rest-query';
import { serializeGlobalAdvisory } from './advisories.serializers';

/** This request's service (bound to its data versions for reads). */
const advisoriesOf = (res: Response) => servicesOf(res).advisories;

/** interfaces.md "Advisory database": the global advisory list and one advisory. */
export function advisoriesRoutes(): Router {
  const router = Router();

  route(router, 'listGlobalAdvisories', async (req, res) => {
    rejectPageParameter(req.query);
    const { query, carried } = listQueryOf(req);
    const request = parseInput(advisoryListRequest, query, ADVISORY_QUERY_INPUT);
    const page = await advisoriesOf(res).list(principalOf(res), request);
    setAdvisoryLinks(req, res, request.perPage, page, carried);
    const base = apiBaseOf(res);
    sendJsonText(res, 200, JSON.stringify(page.items.map((advisory) => serializeGlobalAdvisory(base, advisory))));
  });

  route(router, 'getGlobalAdvisory', async (req, res) => {
    const p = parseInput(advisoryPath, req.params, ADVISORY_INPUT);
    sendJsonText(res, 200, JSON.stringify(serializeGlobalAdvisory(apiBaseOf(res), await advisoriesOf(res).get(principalOf(res), p.svcsa_id))));
  });

  return router;
}
