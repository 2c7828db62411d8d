import { Router, type Request, type Response } from 'express';
import type { KeysetPage } from '../../database/keyset';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf } from '../../http/locals';
import { operation } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  ALERT_INPUT, ALERT_QUERY_INPUT, alertPath, enterpriseListQuery, enterprisePath, filtersOf, orgListQuery, orgPath, repoListQuery, repoPath, updateBody,
} from './alerts.schemas';
import { serializeAlert } from './alerts.serializers';
import type { AlertView, DependencyAlertsService } from './alerts.service';
import type { AlertListRequest } from './alerts.types';

function listRequest(q: Parameters<typeof filtersOf>[0]): AlertListRequest {
  return { filters: filtersOf(q), sort: q.sort, direction: q.direction, perPage: q.per_page, after: q.after, before: q.before };
}

function sendPage(req: Request, res: Response, page: KeysetPage<AlertView>, withRepository: boolean): void {
  setCursorLinks(req, res, page);
  sendJson(res, 200, page.items.map((view) => serializeAlert(apiBaseOf(res), view, { withRepository })));
}

/** Spec §4.4, #23–#27 (#26 is the single-alert read). */
export function dependencyAlertsRoutes(alerts: DependencyAlertsService): Router {
  const router = Router();

  router.get('/enterprises/:enterprise/dependency-bot/alerts', operation('listEnterpriseDependencyAlerts'), async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(enterprisePath, req.params, ALERT_INPUT);
    const q = parseInput(enterpriseListQuery, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForEnterprise(principalOf(res), p.enterprise, listRequest(q)), true);
  });

  router.get('/orgs/:org/dependency-bot/alerts', operation('listOrgDependencyAlerts'), async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(orgPath, req.params, ALERT_INPUT);
    const q = parseInput(orgListQuery, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForOrg(principalOf(res), p.org, listRequest(q)), true);
  });

  router.get('/repos/:owner/:repo/dependency-bot/alerts', operation('listRepoDependencyAlerts'), async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(repoPath, req.params, ALERT_INPUT);
    const q = parseInput(repoListQuery, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForRepo(principalOf(res), p.owner, p.repo, listRequest(q)), false);
  });

  router.get('/repos/:owner/:repo/dependency-bot/alerts/:alert_number', operation('getDependencyAlert'), async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const view = await alerts.get(principalOf(res), p.owner, p.repo, p.alert_number);
    sendJson(res, 200, serializeAlert(apiBaseOf(res), view, { withRepository: false }));
  });

  router.patch('/repos/:owner/:repo/dependency-bot/alerts/:alert_number', operation('updateDependencyAlert'), async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const body = parseInput(updateBody, jsonBody(req), ALERT_INPUT);
    const view = await alerts.update(principalOf(res), p.owner, p.repo, p.alert_number, body);
    sendJson(res, 200, serializeAlert(apiBaseOf(res), view, { withRepository: false }));
  });

  return router;
}
