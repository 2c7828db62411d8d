import { Router, type Response } from 'express';
import { jsonBody } from '../../http/body';
import { principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendEmpty, sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  INCLUSION_INPUT, ORG_TEMPLATE_INPUT, PATH_INPUT, REPO_TEMPLATE_INPUT, enterpriseInclusionPath, enterprisePath, inclusionBody,
  orgInclusionPath, orgPath, orgTemplateBody, repoPath, repoTemplateBody,
} from './oidc.schemas';
import { serializeInclusion, serializeOrgInclusion, serializeOrgTemplate, serializeRepoTemplate } from './oidc.serializers';

/** This request's service (bound to its data versions for reads). */
const oidcOf = (res: Response) => servicesOf(res).oidc;

/** Spec §4.2, #11–#20. */
export function oidcRoutes(): Router {
  const router = Router();

  route(router, 'listEnterpriseOidcInclusions', async (req, res) => {
    const p = parseInput(enterprisePath, req.params, PATH_INPUT);
    sendJson(res, 200, (await oidcOf(res).listEnterpriseInclusions(principalOf(res), p.enterprise)).map(serializeInclusion));
  });

  route(router, 'createEnterpriseOidcInclusion', async (req, res) => {
    const p = parseInput(enterprisePath, req.params, PATH_INPUT);
    const body = parseInput(inclusionBody, jsonBody(req), INCLUSION_INPUT);
    sendJson(res, 201, serializeInclusion(await oidcOf(res).createEnterpriseInclusion(principalOf(res), p.enterprise, body.custom_property_name)));
  });

  route(router, 'deleteEnterpriseOidcInclusion', async (req, res) => {
    const p = parseInput(enterpriseInclusionPath, req.params, INCLUSION_INPUT);
    await oidcOf(res).deleteEnterpriseInclusion(principalOf(res), p.enterprise, p.custom_property_name);
    sendEmpty(res, 204);
  });

  route(router, 'listOrgOidcInclusions', async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    sendJson(res, 200, (await oidcOf(res).listOrgInclusions(principalOf(res), p.org)).map(serializeOrgInclusion));
  });

  route(router, 'createOrgOidcInclusion', async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    const body = parseInput(inclusionBody, jsonBody(req), INCLUSION_INPUT);
    sendJson(res, 201, serializeInclusion(await oidcOf(res).createOrgInclusion(principalOf(res), p.org, body.custom_property_name)));
  });

  route(router, 'deleteOrgOidcInclusion', async (req, res) => {
    const p = parseInput(orgInclusionPath, req.params, INCLUSION_INPUT);
    await oidcOf(res).deleteOrgInclusion(principalOf(res), p.org, p.custom_property_name);
    sendEmpty(res, 204);
  });

  route(router, 'getOrgOidcSubjectTemplate', async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    sendJson(res, 200, serializeOrgTemplate(await oidcOf(res).getOrgTemplate(principalOf(res), p.org)));
  });

  route(router, 'setOrgOidcSubjectTemplate', async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    const body = parseInput(orgTemplateBody, jsonBody(req), ORG_TEMPLATE_INPUT);
    await oidcOf(res).setOrgTemplate(principalOf(res), p.org, body);
    sendEmpty(res, 201);
  });

  route(router, 'getRepoOidcSubjectTemplate', async (req, res) => {
    const p = parseInput(repoPath, req.params, PATH_INPUT);
    sendJson(res, 200, serializeRepoTemplate(await oidcOf(res).getRepoTemplate(principalOf(res), p.owner, p.repo)));
  });

  route(router, 'setRepoOidcSubjectTemplate', async (req, res) => {
    const p = parseInput(repoPath, req.params, PATH_INPUT);
    const body = parseInput(repoTemplateBody, jsonBody(req), REPO_TEMPLATE_INPUT);
    await oidcOf(res).setRepoTemplate(principalOf(res), p.owner, p.repo, body);
    sendEmpty(res, 201);
  });

  return router;
}
