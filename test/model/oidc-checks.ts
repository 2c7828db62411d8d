import { ENTERPRISE, ORG, REPOS, type RepoName } from './model-world';
import { repoTemplateView, type Model } from './model';
import { expectStatus, send, type Real } from './real';

// #11, #14, #17 and #19 as the owner sees them, against the model.

type Json = Record<string, any>;
export const ENTERPRISE_INCLUSIONS = `/enterprises/${ENTERPRISE}/actions/oidc/customization/properties/repo`;
export const ORG_INCLUSIONS = `/orgs/${ORG}/actions/oidc/customization/properties/repo`;
export const ORG_TEMPLATE = `/orgs/${ORG}/actions/oidc/customization/sub`;
export const repoTemplatePath = (repo: RepoName) => `/repos/${repo}/actions/oidc/customization/sub`;

export type InclusionLevel = 'enterprise' | 'organization';
export const inclusionsOf = (m: Model, level: InclusionLevel) => (level === 'enterprise' ? m.enterpriseInclusions : m.orgInclusions);

/**
 * The listed names are the model's, oldest first. Creation times are whole seconds and ties go by
 * name, so two neighbours may stand in name order instead of creation order, never otherwise.
 */
export function expectInclusionList(m: Model, level: InclusionLevel, body: Json[]): void {
  const created = [...inclusionsOf(m, level)]; // a Set keeps insertion order: creation order
  const names: string[] = body.map((item) => item.custom_property_name);
  expect([...names].sort()).toEqual([...created].sort());
  const misplaced = names.slice(1).flatMap((name, i) => {
    const before = names[i]!;
    return created.indexOf(before) < created.indexOf(name) || before < name ? [] : [`${before} before ${name}`];
  });
  expect({ names, misplaced }).toEqual({ names, misplaced: [] });
  // #14 keeps the spec's property_name beside the common fields.
  const shape = (name: string) => (level === 'organization' ? { property_name: name, custom_property_name: name, inclusion_source: level } : { custom_property_name: name, inclusion_source: level });
  expect(body).toEqual(names.map(shape));
}

export async function expectInclusionsMatch(m: Model, real: Real, level: InclusionLevel): Promise<void> {
  const res = await send(real, 'owner', 'get', level === 'enterprise' ? ENTERPRISE_INCLUSIONS : ORG_INCLUSIONS);
  expectStatus(res, 200);
  expectInclusionList(m, level, res.body);
}

export const orgTemplateView = (m: Model) => ({ include_claim_keys: m.orgTemplate.keys, use_immutable_subject: m.orgTemplate.immutable });

/** #17 and #19 for every repository: a repository that follows its organization changes with it. */
export async function expectTemplatesMatch(m: Model, real: Real): Promise<void> {
  const org = await send(real, 'owner', 'get', ORG_TEMPLATE);
  expectStatus(org, 200);
  expect(org.body).toEqual(orgTemplateView(m));
  for (const repo of REPOS) {
    const res = await send(real, 'owner', 'get', repoTemplatePath(repo));
    expectStatus(res, 200);
    expect({ repo, template: res.body }).toEqual({ repo, template: repoTemplateView(m, repo) });
  }
}
