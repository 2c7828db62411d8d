import { Router, type RequestHandler } from 'express';
import { jsonBody } from '../../http/body';
import { principalOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendEmpty, sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  INCLUSION_INPUT, ORG_TEMPLATE_INPUT, PATH_INPUT, REPO_TEMPLATE_INPUT, enterpriseInclusionPath, enterprisePath, inclusionBody,
  orgInclusionPath, orgPath, orgTemplateBody, repoPath, repoTemplateBody,
} from './oidc.schemas';
import { serializeInclusion, serializeOrgInclusion, serializeOrgTemplate, serializeRepoTemplate } from './oidc.serializers';
import type { OidcService } from './oidc.service';

/** Spec §4.2, #11–#20. */
export function oidcRoutes(oidc: OidcService, cached: RequestHandler): Router {
  const router = Router();

  route(router, 'listEnterpriseOidcInclusions', cached, async (req, res) => {
    const p = parseInput(enterprisePath, req.params, PATH_INPUT);
    sendJson(res, 200, (await oidc.listEnterpriseInclusions(principalOf(res), p.enterprise)).map(serializeInclusion));
  });

  route(router, 'createEnterpriseOidcInclusion', async (req, res) => {
    const p = parseInput(enterprisePath, req.params, PATH_INPUT);
    const body = parseInput(inclusionBody, jsonBody(req), INCLUSION_INPUT);
    sendJson(res, 201, serializeInclusion(await oidc.createEnterpriseInclusion(principalOf(res), p.enterprise, body.custom_property_name)));
  });

  route(router, 'deleteEnterpriseOidcInclusion', async (req, res) => {
    const p = parseInput(enterpriseInclusionPath, req.params, INCLUSION_INPUT);
    await oidc.deleteEnterpriseInclusion(principalOf(res), p.enterprise, p.custom_property_name);
    sendEmpty(res, 204);
  });

  route(router, 'listOrgOidcInclusions', cached, async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    sendJson(res, 200, (await oidc.listOrgInclusions(principalOf(res), p.org)).map(serializeOrgInclusion));
  });

  route(router, 'createOrgOidcInclusion', async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    const body = parseInput(inclusionBody, jsonBody(req), INCLUSION_INPUT);
    sendJson(res, 201, serializeInclusion(await oidc.createOrgInclusion(principalOf(res), p.org, body.custom_property_name)));
  });

  route(router, 'deleteOrgOidcInclusion', async (req, res) => {
    const p = parseInput(orgInclusionPath, req.params, INCLUSION_INPUT);
    await oidc.deleteOrgInclusion(principalOf(res), p.org, p.custom_property_name);
    sendEmpty(res, 204);
  });

  route(router, 'getOrgOidcSubjectTemplate', cached, async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    sendJson(res, 200, serializeOrgTemplate(await oidc.getOrgTemplate(principalOf(res), p.org)));
  });

  route(router, 'setOrgOidcSubjectTemplate', async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    const body = parseInput(orgTemplateBody, jsonBody(req), ORG_TEMPLATE_INPUT);
    await oidc.setOrgTemplate(principalOf(res), p.org, body);
    sendEmpty(res, 201);
  });

  route(router, 'getRepoOidcSubjectTemplate', cached, async (req, res) => {
    const p = parseInput(repoPath, req.params, PATH_INPUT);
    sendJson(res, 200, serializeRepoTemplate(await oidc.getRepoTemplate(principalOf(res), p.owner, p.repo)));
  });

  route(router, 'setRepoOidcSubjectTemplate', async (req, res) => {
    const p = parseInput(repoPath, req.params, PATH_INPUT);
    const body = parseInput(repoTemplateBody, jsonBody(req), REPO_TEMPLATE_INPUT);
    await oidc.setRepoTemplate(principalOf(res), p.owner, p.repo, body);
    sendEmpty(res, 201);
  });

  return router;
}
