import { inclusionSchema, orgInclusionSchema, orgTemplateSchema, repoTemplateSchema } from '../modules/oidc/oidc.responses';
import { enterpriseInclusionPath, enterprisePath, inclusionBody, orgInclusionPath, orgPath, orgTemplateBody, repoPath, repoTemplateBody } from '../modules/oidc/oidc.schemas';
import { mintedTokenSchema, tokenPreviewSchema } from '../modules/oidc-tokens/oidc-tokens.responses';
import { tokenRequestBody } from '../modules/oidc-tokens/oidc-tokens.schemas';
import type { Operation } from './operation';

// Spec §4.2, #11–#20; interfaces.md Part 2 "OIDC tokens", #64–#65.

const TAG = 'oidc';

// What a caller meets beyond the schemas, shown with each operation in /docs.
const DUPLICATE_INCLUSION = 'Including a property already included answers 422 ("Inclusion already exists").';
const MISSING_INCLUSION = 'Deleting an inclusion that does not exist answers 404.';
const PROPERTY_REMOVED = 'When a custom property is removed (a world file loaded without it), its inclusions go with it.';
const CLAIM_KEYS = 'Claim keys are unique, made of letters, digits and underscores, at most 100 characters each and at most 50 of them; '
  + 'their order is kept. A bad key answers 422 naming it.';
const IMMUTABLE_KEPT = '`use_immutable_subject` keeps its value when a later request leaves it out.';
const TOKEN_BODY = '`context` needs `event_name`, `ref`, `sha`, `workflow` and `actor`; every value is a string (ids and numbers too), and a bad one answers 422 naming it. '
  + '`audience` is a string or an array of strings; without it, `https://<host of the issuer>/<owner>`.';
const TOKEN_SUB = '`sub` follows the repository\'s subject template in effect (as its customization template shows it) and `use_immutable_subject`; '
  + 'custom properties included for the enterprise or organization appear as `repo_property_<name>` claims.';

export const OIDC_OPERATIONS = {
  listEnterpriseOidcInclusions: {
    number: 11, operationId: 'oidc/list-enterprise-custom-property-inclusions', method: 'get', path: '/enterprises/{enterprise}/actions/oidc/customization/properties/repo', success: 200,
    request: { params: enterprisePath },
    response: { schema: inclusionSchema, array: true },
    requirement: { target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'read'], caller: 'enterpriseOwner' },
    docs: { tag: TAG, summary: 'List OIDC custom property inclusions for an enterprise', rules: [PROPERTY_REMOVED] },
  },
  createEnterpriseOidcInclusion: {
    number: 12, operationId: 'oidc/create-enterprise-custom-property-inclusion', method: 'post', path: '/enterprises/{enterprise}/actions/oidc/customization/properties/repo', success: 201,
    request: { params: enterprisePath, body: inclusionBody },
    response: { schema: inclusionSchema },
    requirement: { target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'write'], caller: 'enterpriseOwner' },
    docs: { tag: TAG, summary: 'Create an OIDC custom property inclusion for an enterprise', rules: ['The name must be a custom property defined by one of the enterprise\'s organizations, else 400.', DUPLICATE_INCLUSION] },
  },
  deleteEnterpriseOidcInclusion: {
    number: 13, operationId: 'oidc/delete-enterprise-custom-property-inclusion', method: 'delete', path: '/enterprises/{enterprise}/actions/oidc/customization/properties/repo/{custom_property_name}', success: 204,
    request: { params: enterpriseInclusionPath },
    requirement: { target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'write'], caller: 'enterpriseOwner' },
    docs: { tag: TAG, summary: 'Delete an OIDC custom property inclusion for an enterprise', rules: [MISSING_INCLUSION] },
  },
  listOrgOidcInclusions: {
    number: 14, operationId: 'oidc/list-org-custom-property-inclusions', method: 'get', path: '/orgs/{org}/actions/oidc/customization/properties/repo', success: 200,
    request: { params: orgPath },
    response: { schema: orgInclusionSchema, array: true },
    requirement: { target: 'org', scopes: ['read:org'], permission: ['organization_administration', 'read'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'List OIDC custom property inclusions for an organization', rules: [PROPERTY_REMOVED] },
  },
  createOrgOidcInclusion: {
    number: 15, operationId: 'oidc/create-org-custom-property-inclusion', method: 'post', path: '/orgs/{org}/actions/oidc/customization/properties/repo', success: 201,
    request: { params: orgPath, body: inclusionBody },
    response: { schema: inclusionSchema },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Create an OIDC custom property inclusion for an organization', rules: ['The name must be a custom property the organization defines (another organization\'s does not count), else 400.', DUPLICATE_INCLUSION] },
  },
  deleteOrgOidcInclusion: {
    number: 16, operationId: 'oidc/delete-org-custom-property-inclusion', method: 'delete', path: '/orgs/{org}/actions/oidc/customization/properties/repo/{custom_property_name}', success: 204,
    request: { params: orgInclusionPath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Delete an OIDC custom property inclusion for an organization', rules: [MISSING_INCLUSION] },
  },
  getOrgOidcSubjectTemplate: {
    number: 17, operationId: 'oidc/get-oidc-custom-sub-template-for-org', method: 'get', path: '/orgs/{org}/actions/oidc/customization/sub', success: 200,
    request: { params: orgPath },
    response: { schema: orgTemplateSchema },
    requirement: { target: 'org', scopes: ['read:org'], permission: ['organization_administration', 'read'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Get the customization template for an OIDC subject claim for an organization', rules: ['Before any template is set, answers the default keys `["repo", "context"]`.'] },
  },
  setOrgOidcSubjectTemplate: {
    number: 18, operationId: 'oidc/update-oidc-custom-sub-template-for-org', method: 'put', path: '/orgs/{org}/actions/oidc/customization/sub', success: 201,
    request: { params: orgPath, body: orgTemplateBody },
    requirement: { target: 'org', scopes: ['write:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
    docs: { tag: TAG, summary: 'Set the customization template for an OIDC subject claim for an organization', rules: ['Replaces the keys, in the order given; an empty list is accepted.', CLAIM_KEYS, IMMUTABLE_KEPT] },
  },
  getRepoOidcSubjectTemplate: {
    number: 19, operationId: 'actions/get-custom-oidc-sub-claim-for-repo', method: 'get', path: '/repos/{owner}/{repo}/actions/oidc/customization/sub', success: 200,
    request: { params: repoPath },
    response: { schema: repoTemplateSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['actions', 'read'], caller: 'repoReader', publicRead: true },
    docs: { tag: TAG, summary: 'Get the customization template for an OIDC subject claim for a repository', rules: [
        'Shows the keys in effect: with `use_default: true`, or never configured, the default keys `["repo", "context"]`; '
        + 'with `use_default: false` and no keys of its own, its organization\'s template as that changes (the default keys for a repository owned by a user); '
        + 'with keys, its own.',
      ] },
  },
  setRepoOidcSubjectTemplate: {
    number: 20, operationId: 'actions/set-custom-oidc-sub-claim-for-repo', method: 'put', path: '/repos/{owner}/{repo}/actions/oidc/customization/sub', success: 201,
    request: { params: repoPath, body: repoTemplateBody },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['actions', 'write'], caller: 'repoWriter' },
    docs: { tag: TAG, summary: 'Set the customization template for an OIDC subject claim for a repository', rules: [
        '`use_default` is required: a request without it, or with a value that is not a boolean, answers 400.',
        'With `use_default: true`, any keys sent are ignored; with `use_default: false` and no keys, the repository follows its organization\'s template.',
        CLAIM_KEYS, IMMUTABLE_KEPT,
      ] },
  },
  mintOidcToken: {
    number: 64, operationId: 'actions/create-oidc-token-for-repo', method: 'post', path: '/repos/{owner}/{repo}/actions/oidc/token', success: 201,
    request: { params: repoPath, body: tokenRequestBody },
    response: { schema: mintedTokenSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['id_token', 'write'], caller: 'repoWriter' },
    readsOnly: true,
    docs: { tag: TAG, summary: 'Create an OIDC token for a workflow run of a repository', rules: [
        TOKEN_BODY, TOKEN_SUB,
        'The token is an RS256 JWT that verifies against the keys at `{issuer}/.well-known/jwks`; it is valid from 5 minutes before it was issued to 5 minutes after.',
      ] },
  },
  previewOidcToken: {
    number: 65, operationId: 'actions/preview-oidc-sub-claim-for-repo', method: 'post', path: '/repos/{owner}/{repo}/actions/oidc/customization/sub/preview', success: 200,
    request: { params: repoPath, body: tokenRequestBody },
    response: { schema: tokenPreviewSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['actions', 'read'], caller: 'repoReader', publicRead: true },
    readsOnly: true,
    docs: { tag: TAG, summary: 'Preview the OIDC token claims of a workflow run of a repository', rules: [
        TOKEN_BODY, TOKEN_SUB, 'Nothing is signed: the claims are a mint\'s of the same request, but `exp`, `iat`, `nbf` and `jti`.',
      ] },
  },
} satisfies Record<string, Operation>;
