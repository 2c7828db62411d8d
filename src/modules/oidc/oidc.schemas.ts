import { z } from 'zod';
import { pathName } from '../../http/params';
import type { InputContext } from '../../http/validate';
import { claimKeys, customPropertyName } from '../../shared/names';
import type { OrgTemplateUpdate, RepoTemplateUpdate } from './oidc.types';

// Request schemas of #11–#20.

/** #12, #13, #15, #16: the spec lists 400 for invalid input. */
export const INCLUSION_INPUT: InputContext = { resource: 'OidcCustomPropertyInclusion', invalidStatus: 400 };
/** #18: validation failures are 422 naming the bad key. */
export const ORG_TEMPLATE_INPUT: InputContext = { resource: 'OidcSubjectTemplate', invalidStatus: 422 };
/** #20: a missing or malformed use_default is 400; anything else (the keys) is 422. */
export const REPO_TEMPLATE_INPUT: InputContext = {
  resource: 'OidcSubjectTemplate',
  invalidStatus: (errors) => (errors.some((e) => e.field === 'use_default') ? 400 : 422),
};
export const PATH_INPUT: InputContext = { resource: 'OidcCustomization', invalidStatus: 422 };

export const enterprisePath = z.object({ enterprise: pathName });
export const orgPath = z.object({ org: pathName });
export const repoPath = z.object({ owner: pathName, repo: pathName });
export const enterpriseInclusionPath = enterprisePath.extend({ custom_property_name: customPropertyName });
export const orgInclusionPath = orgPath.extend({ custom_property_name: customPropertyName });

export const inclusionBody = z.strictObject({ custom_property_name: customPropertyName });

/** Kept as it is when not given. */
const useImmutableSubject = z.boolean().optional();

export const orgTemplateBody = z
  .strictObject({ include_claim_keys: claimKeys, use_immutable_subject: useImmutableSubject })
  .transform((body): OrgTemplateUpdate => ({ includeClaimKeys: body.include_claim_keys, useImmutableSubject: body.use_immutable_subject }));

export const repoTemplateBody = z
  .strictObject({ use_default: z.boolean(), include_claim_keys: claimKeys.optional(), use_immutable_subject: useImmutableSubject })
  .transform((body): RepoTemplateUpdate => ({ useDefault: body.use_default, includeClaimKeys: body.include_claim_keys, useImmutableSubject: body.use_immutable_subject }));

// The same inputs as GraphQL's mutations give them, by the same rules (messages name camelCase fields).
export const inclusionInput = z.object({ customPropertyName });
export const orgTemplateInput = z.object({ includeClaimKeys: claimKeys, useImmutableSubject });
export const repoTemplateInput = z.object({ useDefault: z.boolean(), includeClaimKeys: claimKeys.optional(), useImmutableSubject });
