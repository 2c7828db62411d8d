import { Router, type RequestHandler } from 'express';
import { jsonBody } from '../../http/body';
import { principalOf } from '../../http/locals';
import { operation } from '../../http/operation';
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
  const enterpriseInclusions = '/enterprises/:enterprise/actions/oidc/customization/properties/repo';
  const orgInclusions = '/orgs/:org/actions/oidc/customization/properties/repo';

  router.get(enterpriseInclusions, operation('listEnterpriseOidcInclusions'), cached, async (req, res) => {
    const p = parseInput(enterprisePath, req.params, PATH_INPUT);
    sendJson(res, 200, (await oidc.listEnterpriseInclusions(principalOf(res), p.enterprise)).map(serializeInclusion));
  });

  router.post(enterpriseInclusions, operation('createEnterpriseOidcInclusion'), async (req, res) => {
    const p = parseInput(enterprisePath, req.params, PATH_INPUT);
    const body = parseInput(inclusionBody, jsonBody(req), INCLUSION_INPUT);
    sendJson(res, 201, serializeInclusion(await oidc.createEnterpriseInclusion(principalOf(res), p.enterprise, body.custom_property_name)));
  });

  router.delete(`${enterpriseInclusions}/:custom_property_name`, operation('deleteEnterpriseOidcInclusion'), async (req, res) => {
    const p = parseInput(enterpriseInclusionPath, req.params, INCLUSION_INPUT);
    await oidc.deleteEnterpriseInclusion(principalOf(res), p.enterprise, p.custom_property_name);
    sendEmpty(res, 204);
  });

  router.get(orgInclusions, operation('listOrgOidcInclusions'), cached, async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    sendJson(res, 200, (await oidc.listOrgInclusions(principalOf(res), p.org)).map(serializeOrgInclusion));
  });

  router.post(orgInclusions, operation('createOrgOidcInclusion'), async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    const body = parseInput(inclusionBody, jsonBody(req), INCLUSION_INPUT);
    sendJson(res, 201, serializeInclusion(await oidc.createOrgInclusion(principalOf(res), p.org, body.custom_property_name)));
  });

  router.delete(`${orgInclusions}/:custom_property_name`, operation('deleteOrgOidcInclusion'), async (req, res) => {
    const p = parseInput(orgInclusionPath, req.params, INCLUSION_INPUT);
    await oidc.deleteOrgInclusion(principalOf(res), p.org, p.custom_property_name);
    sendEmpty(res, 204);
  });

  router.get('/orgs/:org/actions/oidc/customization/sub', operation('getOrgOidcSubjectTemplate'), cached, async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    sendJson(res, 200, serializeOrgTemplate(await oidc.getOrgTemplate(principalOf(res), p.org)));
  });

  router.put('/orgs/:org/actions/oidc/customization/sub', operation('setOrgOidcSubjectTemplate'), async (req, res) => {
    const p = parseInput(orgPath, req.params, PATH_INPUT);
    const body = parseInput(orgTemplateBody, jsonBody(req), ORG_TEMPLATE_INPUT);
    await oidc.setOrgTemplate(principalOf(res), p.org, body);
    sendEmpty(res, 201);
  });

  router.get('/repos/:owner/:repo/actions/oidc/customization/sub', operation('getRepoOidcSubjectTemplate'), cached, async (req, res) => {
    const p = parseInput(repoPath, req.params, PATH_INPUT);
    sendJson(res, 200, serializeRepoTemplate(await oidc.getRepoTemplate(principalOf(res), p.owner, p.repo)));
  });

  router.put('/repos/:owner/:repo/actions/oidc/customization/sub', operation('setRepoOidcSubjectTemplate'), async (req, res) => {
    const p = parseInput(repoPath, req.params, PATH_INPUT);
    const body = parseInput(repoTemplateBody, jsonBody(req), REPO_TEMPLATE_INPUT);
    await oidc.setRepoTemplate(principalOf(res), p.owner, p.repo, body);
    sendEmpty(res, 201);
  });

  return router;
}
