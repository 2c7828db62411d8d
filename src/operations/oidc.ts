import { inclusionSchema, orgInclusionSchema, orgTemplateSchema, repoTemplateSchema } from '../modules/oidc/oidc.responses';
import { enterpriseInclusionPath, enterprisePath, inclusionBody, orgInclusionPath, orgPath, orgTemplateBody, repoPath, repoTemplateBody } from '../modules/oidc/oidc.schemas';
import type { Operation } from './operation';

// Spec §4.2, #11–#20.

const TAG = 'oidc';

export const OIDC_OPERATIONS = {
  listEnterpriseOidcInclusions: {
    number: 11, operationId: 'oidc/list-enterprise-custom-property-inclusions', method: 'get', path: '/enterprises/{enterprise}/actions/oidc/customization/properties/repo', success: 200,
    request: { params: enterprisePath },
    response: { schema: inclusionSchema, array: true },
    requirement: { target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'read'], caller: 'enterpriseOwner' },
    docs: { tag: TAG, summary: 'List OIDC custom property inclusions for an enterprise' },
  },
  createEnterpriseOidcInclusion: {
    number: 12, operationId: 'oidc/create-enterprise-custom-property-inclusion', method: 'post', path: '/enterprises/{enterprise}/actions/oidc/customization/properties/repo', success: 201,
    request: { params: enterprisePath, body: inclusionBody },
    response: { schema: inclusionSchema },
    requirement: { target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'write'], caller: 'enterpriseOwner' },
    docs: { tag: TAG, summary: 'Create an OIDC custom property inclusion for an enterprise' },
  },
  deleteEnterpriseOidcInclusion: {
    number: 13, operationId: 'oidc/delete-enterprise-custom-property-inclusion', method: 'delete', path: '/enterprises/{enterprise}/actions/oidc/customization/properties/repo/{custom_property_name}', success: 204,
    request: { params: enterpriseInclusionPath },
    requirement: { target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'write'], caller: 'enterpriseOwner' },
    docs: { tag: TAG, summary: 'Delete an OIDC custom property inclusion for an enterprise' },
  },
  listOrgOidcInclusions: {
    number: 14, operationId: 'oidc/list-org-custom-property-inclusions', method: 'get', path: '/orgs/{org}/actions/oidc/customization/properties/repo', success: 200,
    request: { params: orgPath },
    response: { schema: orgInclusionSchema, array: true },
    requirement: { target: 'org', scopes: ['read:org'], permission: ['organization_administration', 'read'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'List OIDC custom property inclusions for an organization' },
  },
  createOrgOidcInclusion: {
    number: 15, operationId: 'oidc/create-org-custom-property-inclusion', method: 'post', path: '/orgs/{org}/actions/oidc/customization/properties/repo', success: 201,
    request: { params: orgPath, body: inclusionBody },
    response: { schema: inclusionSchema },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Create an OIDC custom property inclusion for an organization' },
  },
  deleteOrgOidcInclusion: {
    number: 16, operationId: 'oidc/delete-org-custom-property-inclusion', method: 'delete', path: '/orgs/{org}/actions/oidc/customization/properties/repo/{custom_property_name}', success: 204,
    request: { params: orgInclusionPath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Delete an OIDC custom property inclusion for an organization' },
  },
  getOrgOidcSubjectTemplate: {
    number: 17, operationId: 'oidc/get-oidc-custom-sub-template-for-org', method: 'get', path: '/orgs/{org}/actions/oidc/customization/sub', success: 200,
    request: { params: orgPath },
    response: { schema: orgTemplateSchema },
    requirement: { target: 'org', scopes: ['read:org'], permission: ['organization_administration', 'read'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Get the customization template for an OIDC subject claim for an organization' },
  },
  setOrgOidcSubjectTemplate: {
    number: 18, operationId: 'oidc/update-oidc-custom-sub-template-for-org', method: 'put', path: '/orgs/{org}/actions/oidc/customization/sub', success: 201,
    request: { params: orgPath, body: orgTemplateBody },
    requirement: { target: 'org', scopes: ['write:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Set the customization template for an OIDC subject claim for an organization' },
  },
  getRepoOidcSubjectTemplate: {
    number: 19, operationId: 'actions/get-custom-oidc-sub-claim-for-repo', method: 'get', path: '/repos/{owner}/{repo}/actions/oidc/customization/sub', success: 200,
    request: { params: repoPath },
    response: { schema: repoTemplateSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['actions', 'read'], caller: 'repoReader', publicRead: true },
    docs: { tag: TAG, summary: 'Get the customization template for an OIDC subject claim for a repository' },
  },
  setRepoOidcSubjectTemplate: {
    number: 20, operationId: 'actions/set-custom-oidc-sub-claim-for-repo', method: 'put', path: '/repos/{owner}/{repo}/actions/oidc/customization/sub', success: 201,
    request: { params: repoPath, body: repoTemplateBody },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['actions', 'write'], caller: 'repoWriter' },
    docs: { tag: TAG, summary: 'Set the customization template for an OIDC subject claim for a repository' },
  },
} satisfies Record<string, Operation>;
