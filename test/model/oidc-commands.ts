import fc from 'fast-check';
import { ORG_PROPERTIES, REPOS, SIBLING_PROPERTIES, type Caller, type RepoName } from './model-world';
import { enterpriseOidcAccess, orgOidcAccess, repoTemplateReadAccess, repoTemplateView, repoTemplateWriteAccess, type Decision, type Model } from './model';
import {
  ENTERPRISE_INCLUSIONS, ORG_INCLUSIONS, ORG_TEMPLATE, expectInclusionList, expectInclusionsMatch, expectTemplatesMatch, inclusionsOf, orgTemplateView, repoTemplatePath,
  type InclusionLevel,
} from './oidc-checks';
import { expectRefused, expectStatus, loginOf, send, type Body, type Method, type Real } from './real';
import { StepCommand, callerArb } from './step-command';

// #11–#20: custom-property inclusions (enterprise and organization) and subject-claim templates
// (organization and repository), changed and read by callers with and without the right.

/** Properties an inclusion may name: the organization's own; for the enterprise, any of its organizations'. */
const definedAt = (level: InclusionLevel): readonly string[] => (level === 'enterprise' ? [...ORG_PROPERTIES, ...SIBLING_PROPERTIES] : ORG_PROPERTIES);
const inclusionsPath = (level: InclusionLevel) => (level === 'enterprise' ? ENTERPRISE_INCLUSIONS : ORG_INCLUSIONS);
const inclusionAccess = (m: Model, level: InclusionLevel, caller: Caller): Decision =>
  level === 'enterprise' ? enterpriseOidcAccess(loginOf(caller)) : orgOidcAccess(m, loginOf(caller));
const expectEmpty = (res: { status: number; text: string }, status: number) => expect({ status: res.status, text: res.text }).toEqual({ status, text: '' });

/** #12/#15 (create) and #13/#16 (delete). */
class ChangeInclusion extends StepCommand {
  constructor(readonly caller: Caller, readonly level: InclusionLevel, readonly change: 'create' | 'delete', readonly name: string) {
    super();
  }

  toString() {
    return `${this.caller}: ${this.change} ${this.level} inclusion ${this.name}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const { level, name } = this;
    const included = inclusionsOf(m, level);
    const request = this.change === 'create'
      ? () => send(real, this.caller, 'post', inclusionsPath(level), { json: { custom_property_name: name } })
      : () => send(real, this.caller, 'delete', `${inclusionsPath(level)}/${name}`);
    const access = inclusionAccess(m, level, this.caller);
    if (access !== 200) return void (await expectRefused(real, access, request));
    if (this.change === 'delete') {
      if (!included.has(name)) return void (await expectRefused(real, 404, request));
      expectEmpty(await request(), 204);
      included.delete(name);
    } else {
      // spec #12/#15: 400 for a property nobody defines, 422 for one already included.
      if (!definedAt(level).includes(name)) return void (await expectRefused(real, 400, request));
      if (included.has(name)) {
        const res = await expectRefused(real, 422, request);
        expect(res.body.message).toBe('Inclusion already exists');
        return;
      }
      const res = await request();
      expect({ status: res.status, body: res.body }).toEqual({ status: 201, body: { custom_property_name: name, inclusion_source: level } });
      included.add(name);
    }
    await expectInclusionsMatch(m, real, level);
  }
}

/** #18: replaces the keys; use_immutable_subject is kept when left out. */
class SetOrgTemplate extends StepCommand {
  constructor(readonly caller: Caller, readonly keys: string[], readonly immutable: boolean | undefined) {
    super();
  }

  toString() {
    return `${this.caller}: PUT org template ${JSON.stringify(this.keys)} immutable=${this.immutable}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const body = this.immutable === undefined ? { include_claim_keys: this.keys } : { include_claim_keys: this.keys, use_immutable_subject: this.immutable };
    const request = () => send(real, this.caller, 'put', ORG_TEMPLATE, { json: body });
    const access = orgOidcAccess(m, loginOf(this.caller));
    if (access !== 200) return void (await expectRefused(real, access, request));
    expectEmpty(await request(), 201);
    m.orgTemplate = { keys: [...this.keys], immutable: this.immutable ?? m.orgTemplate.immutable };
    await expectTemplatesMatch(m, real);
  }
}

/** #20: use_default true ignores keys; false without keys follows the organization's template. */
class SetRepoTemplate extends StepCommand {
  constructor(readonly caller: Caller, readonly repo: RepoName, readonly useDefault: boolean, readonly keys: string[] | undefined, readonly immutable: boolean | undefined) {
    super();
  }

  toString() {
    return `${this.caller}: PUT ${this.repo} template use_default=${this.useDefault} keys=${JSON.stringify(this.keys)} immutable=${this.immutable}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const body = {
      use_default: this.useDefault,
      ...(this.keys === undefined ? {} : { include_claim_keys: this.keys }),
      ...(this.immutable === undefined ? {} : { use_immutable_subject: this.immutable }),
    };
    const request = () => send(real, this.caller, 'put', repoTemplatePath(this.repo), { json: body });
    const access = repoTemplateWriteAccess(m, loginOf(this.caller), this.repo);
    if (access !== 200) return void (await expectRefused(real, access, request));
    expectEmpty(await request(), 201);
    const current = m.repoTemplates.get(this.repo);
    m.repoTemplates.set(this.repo, {
      useDefault: this.useDefault,
      keys: this.useDefault ? null : this.keys ?? null,
      immutable: this.immutable ?? current?.immutable ?? false,
    });
    await expectTemplatesMatch(m, real);
  }
}

type OidcRead = { kind: 'inclusions'; level: InclusionLevel } | { kind: 'org-template' } | { kind: 'repo-template'; repo: RepoName };

/** #11, #14, #17 and #19 by any caller. */
class ReadOidc extends StepCommand {
  constructor(readonly caller: Caller, readonly what: OidcRead) {
    super();
  }

  toString() {
    return `${this.caller}: GET ${JSON.stringify(this.what)}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const { what } = this;
    const who = loginOf(this.caller);
    const [path, access] = what.kind === 'inclusions' ? [inclusionsPath(what.level), inclusionAccess(m, what.level, this.caller)]
      : what.kind === 'org-template' ? [ORG_TEMPLATE, orgOidcAccess(m, who)]
      : [repoTemplatePath(what.repo), repoTemplateReadAccess(m, who, what.repo)];
    const request = () => send(real, this.caller, 'get', path);
    if (access !== 200) return void (await expectRefused(real, access, request));
    const res = await request();
    expectStatus(res, 200);
    if (what.kind === 'inclusions') expectInclusionList(m, what.level, res.body);
    else expect(res.body).toEqual(what.kind === 'org-template' ? orgTemplateView(m) : repoTemplateView(m, what.repo));
  }
}

/** A body the schema refuses, by the owner (so the body is the only thing wrong). */
class SetOidcBadly extends StepCommand {
  constructor(readonly what: string, readonly method: Method, readonly path: string, readonly body: Body, readonly status: 400 | 422) {
    super();
  }

  toString() {
    return `owner: ${this.method.toUpperCase()} ${this.path} with ${this.what}`;
  }

  protected async step(_m: Model, real: Real): Promise<void> {
    await expectRefused(real, this.status, () => send(real, 'owner', this.method, this.path, this.body));
  }
}

const PRIVATE_TEMPLATE = repoTemplatePath(REPOS[0]);
const BAD_BODIES: Array<[string, Method, string, Body, 400 | 422]> = [
  ['no property name', 'post', ORG_INCLUSIONS, { json: {} }, 400],
  ['a property name with a space', 'post', ORG_INCLUSIONS, { json: { custom_property_name: 'cost center' } }, 400],
  ['an unknown key', 'post', ENTERPRISE_INCLUSIONS, { json: { custom_property_name: 'team', source: 'enterprise' } }, 400],
  ['a number for a name', 'post', ENTERPRISE_INCLUSIONS, { json: { custom_property_name: 7 } }, 400],
  ['malformed JSON', 'post', ORG_INCLUSIONS, { raw: '{"custom_property_name":' }, 400],
  ['a repeated claim key', 'put', ORG_TEMPLATE, { json: { include_claim_keys: ['repo', 'repo'] } }, 422],
  ['a claim key with a hyphen', 'put', ORG_TEMPLATE, { json: { include_claim_keys: ['job-workflow-ref'] } }, 422],
  ['no claim keys at all', 'put', ORG_TEMPLATE, { json: { use_immutable_subject: true } }, 422],
  ['fifty-one claim keys', 'put', ORG_TEMPLATE, { json: { include_claim_keys: Array.from({ length: 51 }, (_, i) => `k${i}`) } }, 422],
  ['no use_default', 'put', PRIVATE_TEMPLATE, { json: { include_claim_keys: ['repo'] } }, 400],
  ['a string for use_default', 'put', PRIVATE_TEMPLATE, { json: { use_default: 'false' } }, 400],
  ['an empty claim key', 'put', PRIVATE_TEMPLATE, { json: { use_default: false, include_claim_keys: [''] } }, 422],
];

const optionalBool = fc.option(fc.boolean(), { nil: undefined });
const keysArb = fc.uniqueArray(fc.constantFrom('repo', 'context', 'job_workflow_ref', 'environment', 'ref', 'actor', 'repository_owner_id'), { maxLength: 5 });
const levelArb = fc.constantFrom<InclusionLevel>('enterprise', 'organization');
/** Every defined property, and one no organization defines. */
const propertyArb = fc.constantFrom(...ORG_PROPERTIES, ...SIBLING_PROPERTIES, 'undeclared');
const repoArb = fc.constantFrom(...REPOS);
const readArb: fc.Arbitrary<OidcRead> = fc.oneof(
  levelArb.map((level) => ({ kind: 'inclusions' as const, level })),
  fc.constant({ kind: 'org-template' as const }),
  repoArb.map((repo) => ({ kind: 'repo-template' as const, repo })),
);

export const oidcCommands: Array<fc.WeightedArbitrary<fc.AsyncCommand<Model, Real>>> = [
  {
    weight: 3,
    arbitrary: fc.tuple(callerArb, levelArb, fc.constantFrom('create' as const, 'create' as const, 'delete' as const), propertyArb)
      .map(([caller, level, change, name]) => new ChangeInclusion(caller, level, change, name)),
  },
  { weight: 2, arbitrary: fc.tuple(callerArb, keysArb, optionalBool).map(([caller, keys, immutable]) => new SetOrgTemplate(caller, keys, immutable)) },
  {
    weight: 2,
    arbitrary: fc.tuple(callerArb, repoArb, fc.boolean(), fc.option(keysArb, { nil: undefined }), optionalBool)
      .map(([caller, repo, useDefault, keys, immutable]) => new SetRepoTemplate(caller, repo, useDefault, keys, immutable)),
  },
  { weight: 2, arbitrary: fc.tuple(callerArb, readArb).map(([caller, what]) => new ReadOidc(caller, what)) },
  { weight: 1, arbitrary: fc.constantFrom(...BAD_BODIES).map(([what, method, path, body, status]) => new SetOidcBadly(what, method, path, body, status)) },
];
