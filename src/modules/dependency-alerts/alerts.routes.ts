import { Router, type RequestHandler, type Request, type Response } from 'express';
import type { KeysetPage } from '../../database/keyset';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf } from '../../http/locals';
import { operation } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJsonText } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  ALERT_INPUT, ALERT_QUERY_INPUT, alertPath, enterpriseListQuery, enterprisePath, filtersOf, orgListQuery, orgPath, repoListQuery, repoPath, updateBody,
} from './alerts.schemas';
import { AlertJsonWriter } from './alerts.json';
import type { AlertView, DependencyAlertsService } from './alerts.service';
import type { AlertListRequest } from './alerts.types';

function listRequest(q: Parameters<typeof filtersOf>[0]): AlertListRequest {
  return { filters: filtersOf(q), sort: q.sort, direction: q.direction, perPage: q.per_page, after: q.after, before: q.before };
}

/** Writes pages from fragments kept per reference version (the one this request read). */
function pageSender(writer: AlertJsonWriter) {
  return (req: Request, res: Response, page: KeysetPage<AlertView>, withRepository: boolean): void => {
    setCursorLinks(req, res, page);
    sendJsonText(res, 200, writer.page(apiBaseOf(res), page.items, { withRepository, ...res.locals.versions }));
  };
}

/** The alert paths' owner part, then the original's own segment: `/orgs/acme/dependabot/alerts…`. */
const ORIGINAL_SEGMENT = /^(\/(?:enterprises|orgs)\/[^/?]+|\/repos\/[^/?]+\/[^/?]+)\/dependabot\/alerts(?=[/?]|$)/;

/**
 * The original's segment `dependabot` is an alias of `dependency-bot`, so its clients'
 * generated methods (`octokit.rest.dependabot.*`) reach #23–#27 with only the base URL
 * changed. The route sees the product's path; `originalUrl`, which Link headers and the
 * response cache follow, keeps the one the request used.
 */
const acceptOriginalSegment: RequestHandler = (req, _res, next) => {
  req.url = req.url.replace(ORIGINAL_SEGMENT, '$1/dependency-bot/alerts');
  next();
};

/** Spec §4.4, #23–#27 (#26 is the single-alert read). */
export function dependencyAlertsRoutes(alerts: DependencyAlertsService, cached: RequestHandler): Router {
  const router = Router();
  router.use(acceptOriginalSegment);
  const writer = new AlertJsonWriter();
  const sendPage = pageSender(writer);

  router.get('/enterprises/:enterprise/dependency-bot/alerts', operation('listEnterpriseDependencyAlerts'), cached, async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(enterprisePath, req.params, ALERT_INPUT);
    const q = parseInput(enterpriseListQuery, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForEnterprise(principalOf(res), p.enterprise, listRequest(q), res.locals.versions), true);
  });

  router.get('/orgs/:org/dependency-bot/alerts', operation('listOrgDependencyAlerts'), cached, async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(orgPath, req.params, ALERT_INPUT);
    const q = parseInput(orgListQuery, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForOrg(principalOf(res), p.org, listRequest(q), res.locals.versions), true);
  });

  router.get('/repos/:owner/:repo/dependency-bot/alerts', operation('listRepoDependencyAlerts'), cached, async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(repoPath, req.params, ALERT_INPUT);
    const q = parseInput(repoListQuery, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForRepo(principalOf(res), p.owner, p.repo, listRequest(q), res.locals.versions), false);
  });

  router.get('/repos/:owner/:repo/dependency-bot/alerts/:alert_number', operation('getDependencyAlert'), cached, async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const view = await alerts.get(principalOf(res), p.owner, p.repo, p.alert_number);
    // Loaded after the versions were read: at least as new as they say.
    sendJsonText(res, 200, writer.alert(apiBaseOf(res), view, { withRepository: false, ...res.locals.versions }));
  });

  router.patch('/repos/:owner/:repo/dependency-bot/alerts/:alert_number', operation('updateDependencyAlert'), async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const body = parseInput(updateBody, jsonBody(req), ALERT_INPUT);
    const view = await alerts.update(principalOf(res), p.owner, p.repo, p.alert_number, body);
    sendJsonText(res, 200, writer.alert(apiBaseOf(res), view, { withRepository: false }));
  });

  return router;
}
