import { Router, type Request, type Response } from 'express';
import type { KeysetPage } from '../../database/keyset';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJson, sendJsonText } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  ALERT_INPUT, ALERT_QUERY_INPUT, alertPath, enterpriseListRequest, enterprisePath, orgListRequest, orgPath, pathsQuery, repoListRequest, repoPath, updateBody,
} from './alerts.schemas';
import { serializeDependencyPath } from './alert-paths.serializers';
import { alertPageJson, type AlertJsonParts } from './alerts.serializers';
import type { AlertShape } from './alerts.service';

/** This request's service (bound to its data versions for reads). */
const alertsOf = (res: Response) => servicesOf(res).dependencyAlerts;

/** Alerts as this request's REST JSON, in parts (cached, see composition/index.ts). */
function json(res: Response, withRepository: boolean): AlertShape<AlertJsonParts> {
  const alertJson = servicesOf(res).alertJson;
  return (db, keys) => alertJson(db, apiBaseOf(res), keys, { withRepository });
}

function sendPage(req: Request, res: Response, page: KeysetPage<AlertJsonParts>): void {
  setCursorLinks(req, res, page);
  sendJsonText(res, 200, alertPageJson(page.items));
}

/** Spec §4.4, #23–#27 (#26 is the single-alert read), and #71; the request's `alertJson` writes alerts (cached, see composition.ts). */
export function dependencyAlertsRoutes(): Router {
  const router = Router();

  route(router, 'listEnterpriseDependencyAlerts', async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(enterprisePath, req.params, ALERT_INPUT);
    const q = parseInput(enterpriseListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alertsOf(res).listForEnterprise(principalOf(res), p.enterprise, q, json(res, true)));
  });

  route(router, 'listOrgDependencyAlerts', async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(orgPath, req.params, ALERT_INPUT);
    const q = parseInput(orgListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alertsOf(res).listForOrg(principalOf(res), p.org, q, json(res, true)));
  });

  route(router, 'listRepoDependencyAlerts', async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(repoPath, req.params, ALERT_INPUT);
    const q = parseInput(repoListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alertsOf(res).listForRepo(principalOf(res), p.owner, p.repo, q, json(res, false)));
  });

  route(router, 'getDependencyAlert', async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    // Loaded after the versions were read: at least as new as they say.
    sendJsonText(res, 200, (await alertsOf(res).get(principalOf(res), p.owner, p.repo, p.alert_number, json(res, false))).parts);
  });

  route(router, 'updateDependencyAlert', async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const patch = parseInput(updateBody, jsonBody(req), ALERT_INPUT);
    // Written in the change's transaction (no cache there): the alert as it now is.
    sendJsonText(res, 200, (await alertsOf(res).update(principalOf(res), { owner: p.owner, repo: p.repo, number: p.alert_number }, patch, json(res, false))).parts);
  });

  route(router, 'listDependencyAlertPaths', async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const q = parseInput(pathsQuery, req.query, ALERT_QUERY_INPUT);
    const paths = await alertsOf(res).dependencyPaths(principalOf(res), { owner: p.owner, repo: p.repo, number: p.alert_number }, q.per_page);
    sendJson(res, 200, paths.map(serializeDependencyPath));
  });

  return router;
}
