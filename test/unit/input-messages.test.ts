import type { z } from 'zod';
import { parseInput, type InputContext } from '../../src/http/validate';
import { parseArgs } from '../../src/graphql/arguments';
import { BadRequestError, ValidationError, type FieldError } from '../../src/errors/domain';
import { alertPath, orgListQuery, updateBody, ALERT_INPUT, ALERT_QUERY_INPUT } from '../../src/modules/dependency-alerts/alerts.schemas';
import { createBody, listQuery, subjectPath, ATTESTATION_INPUT } from '../../src/modules/attestations/attestations.schemas';
import { inclusionBody, orgTemplateBody, repoTemplateBody, INCLUSION_INPUT, ORG_TEMPLATE_INPUT, REPO_TEMPLATE_INPUT } from '../../src/modules/oidc/oidc.schemas';
import { roleMembersQuery, ROLE_INPUT } from '../../src/modules/org-roles/org-roles.schemas';
import { alertsSchemaError, parseSections } from '../../src/modules/world/world.validation';
import { worldSourceOf } from '../../src/modules/world/world.source';
import { wordingProblems } from '../helpers/error-body';

// Issue 18: every zod issue kind these schemas raise, through the real schemas and parseInput,
// worded in plain words naming the field, what is allowed and the value sent.

interface Refusal {
  status: 400 | 422;
  message: string;
  errors: FieldError[];
}

function refusalOf(schema: z.ZodType, input: unknown, context: InputContext): Refusal {
  try {
    parseInput(schema, input, context);
  } catch (error) {
    if (error instanceof ValidationError) return { status: 422, message: error.message, errors: error.errors };
    if (error instanceof BadRequestError) return { status: 400, message: error.message, errors: [] };
    throw error;
  }
  throw new Error('the input was accepted');
}

const repo = { owner: 'acme-corp', repo: 'api' };

describe('REST and GraphQL input (parseInput)', () => {
  const cases: Array<[kind: string, schema: z.ZodType, input: unknown, context: InputContext, field: string, code: string, message: string]> = [
    ['invalid_type, missing', orgTemplateBody, {}, ORG_TEMPLATE_INPUT, 'include_claim_keys', 'missing_field', '"include_claim_keys" is required and must be an array.'],
    ['invalid_type, a string for an array', updateBody, { state: 'open', assignees: 'bob' }, ALERT_INPUT, 'assignees', 'invalid', '"assignees" must be an array; got "bob".'],
    ['invalid_type, wrong type', createBody, { bundle: 'x' }, ATTESTATION_INPUT, 'bundle', 'invalid', '"bundle" must be an object; got "x".'],
    ['invalid_type, an array for a string', inclusionBody, { custom_property_name: ['a', 'b'] }, { ...INCLUSION_INPUT, invalidStatus: 422 }, 'custom_property_name', 'invalid', '"custom_property_name" must be a string; got an array of 2 items.'],
    ['invalid_value', updateBody, { state: 'dismissed', dismissed_reason: 'meh' }, ALERT_INPUT, 'dismissed_reason', 'invalid', '"dismissed_reason" must be one of fix_started, inaccurate, no_bandwidth, not_used, tolerable_risk; got "meh".'],
    ['invalid_value, a query enum', orgListQuery, { sort: 'size' }, ALERT_QUERY_INPUT, 'sort', 'invalid', '"sort" must be one of created, updated, epss_percentage; got "size".'],
    ['invalid_value, with a written message', updateBody, { state: 'fixed' }, ALERT_INPUT, 'state', 'invalid', '"state" must be dismissed or open (other states cannot be requested); got "fixed".'],
    ['too_small, an empty string', listQuery, { predicate_type: '' }, ATTESTATION_INPUT, 'predicate_type', 'invalid', '"predicate_type" must not be empty.'],
    ['too_big, a string', listQuery, { predicate_type: 'p'.repeat(256) }, ATTESTATION_INPUT, 'predicate_type', 'invalid', `"predicate_type" must be at most 255 characters; got "${'p'.repeat(60)}…" (256 characters).`],
    ['too_big, an array', updateBody, { assignees: Array.from({ length: 11 }, (_, i) => `user${i}`) }, ALERT_INPUT, 'assignees', 'invalid', '"assignees" must name at most 10 users; got an array of 11 items.'],
    ['too_big, a list filter', orgListQuery, { state: Array.from({ length: 101 }, () => 'open').join(',') }, ALERT_QUERY_INPUT, 'state', 'invalid', '"state" must list at most 100 values; got an array of 101 items.'],
    ['invalid_format, a digest', subjectPath, { ...repo, subject_digest: 'sha1:abc' }, ATTESTATION_INPUT, 'subject_digest', 'invalid', '"subject_digest" must be "sha256:" followed by 64 hexadecimal digits; got "sha1:abc".'],
    ['invalid_format, a login', updateBody, { assignees: ['bad login'] }, ALERT_INPUT, 'assignees.0', 'invalid', '"assignees.0" must be a login of letters, digits and inner hyphens; got "bad login".'],
    ['invalid_format, an integer', roleMembersQuery, { per_page: 'abc' }, ROLE_INPUT, 'per_page', 'invalid', '"per_page" must be an integer from 1 to 100; got "abc".'],
    ['custom, an integer out of range', roleMembersQuery, { per_page: '101' }, ROLE_INPUT, 'per_page', 'invalid', '"per_page" must be an integer from 1 to 100; got 101.'],
    ['custom, a path integer', alertPath, { ...repo, alert_number: '1e3' }, ALERT_INPUT, 'alert_number', 'invalid', '"alert_number" must be an integer from 1 to 2147483647; got "1e3".'],
    ['custom, a list item', orgListQuery, { state: 'open,closed' }, ALERT_QUERY_INPUT, 'state', 'invalid', '"state" must be one of open, dismissed, fixed, auto_dismissed; got "closed".'],
    ['custom, a filter expression', orgListQuery, { epss_percentage: '2' }, ALERT_QUERY_INPUT, 'epss_percentage', 'invalid', '"epss_percentage" must be n, >n, <n, >=n, <=n or n..n with n from 0.0 to 1.0; got "2".'],
    ['custom, a rule across fields', updateBody, { state: 'dismissed' }, ALERT_INPUT, 'dismissed_reason', 'invalid', '"dismissed_reason" is required when "state" is "dismissed".'],
    ['custom, a body that changes nothing', updateBody, {}, ALERT_INPUT, 'state', 'invalid', '"state" is required when "assignees" is not given; the body must change one of them.'],
    ['custom, a claim key', orgTemplateBody, { include_claim_keys: ['repo', 'job-workflow'] }, ORG_TEMPLATE_INPUT, 'include_claim_keys.1', 'invalid', '"include_claim_keys.1" must contain only letters, digits and underscores; got "job-workflow".'],
    ['custom, a repeated claim key', orgTemplateBody, { include_claim_keys: ['repo', 'repo'] }, ORG_TEMPLATE_INPUT, 'include_claim_keys.1', 'invalid', '"include_claim_keys.1" must be unique; "repo" appears more than once.'],
    ['unrecognized_keys', updateBody, { state: 'open', extra: 1 }, ALERT_INPUT, 'extra', 'invalid', '"extra" is not a permitted key.'],
    ['invalid_union', orgListQuery, { has: 5 }, ALERT_QUERY_INPUT, 'has', 'invalid', '"has" must be a string or an array; got 5.'],
  ];

  it.each(cases)('%s: the message names the field, what is allowed and the value', (_kind, schema, input, context, field, code, message) => {
    const refusal = refusalOf(schema, input, context);
    expect(refusal.errors[0]).toEqual({ resource: context.resource, field, code, message });
    expect(refusal.message).toBe(message);
    expect(wordingProblems(refusal.message)).toEqual([]);
  });

  it('a 400 has no errors list, so its message is the whole sentence', () => {
    expect(refusalOf(repoTemplateBody, {}, REPO_TEMPLATE_INPUT)).toEqual({ status: 400, message: '"use_default" is required and must be true or false.', errors: [] });
    expect(refusalOf(repoTemplateBody, { use_default: 'false' }, REPO_TEMPLATE_INPUT).message).toBe('"use_default" must be true or false; got "false".');
  });

  it('several problems: the message gives the first three and counts the rest; each is in errors', () => {
    const keys = ['a-1', 'b-2', 'c-3', 'd-4', 'e-5'];
    const refusal = refusalOf(orgTemplateBody, { include_claim_keys: keys }, ORG_TEMPLATE_INPUT);
    const sentence = (i: number) => `"include_claim_keys.${i}" must contain only letters, digits and underscores; got "${keys[i]}".`;
    expect(refusal.errors.map((e) => e.message)).toEqual(keys.map((_, i) => sentence(i)));
    expect(refusal.message).toBe(`${sentence(0)} ${sentence(1)} ${sentence(2)} (2 more problems)`);
  });

  it('shows a value JSON-escaped and cut, never more than about 100 characters of it', () => {
    const hostile = `\u0000\ud800"quote"${'\u0001'.repeat(500)}`;
    const { message, errors } = refusalOf(inclusionBody, { custom_property_name: hostile }, { ...INCLUSION_INPUT, invalidStatus: 422 });
    const shown = `"\\u0000\\ud800\\"quote\\"${'\\u0001'.repeat(9)}…" (509 characters)`;
    expect(errors.map((e) => e.message)).toEqual([
      `"custom_property_name" must be at most 75 characters; got ${shown}.`,
      `"custom_property_name" must contain only letters, digits, "_", "." and "-"; got ${shown}.`,
    ]);
    expect(wordingProblems(message)).toEqual([]);
  });

  it('cuts a long unknown key in the message, and keeps it whole in field', () => {
    const key = 'k'.repeat(5000);
    const refusal = refusalOf(updateBody, { state: 'open', [key]: true }, ALERT_INPUT);
    expect(refusal.errors).toEqual([{ resource: 'DependencyAlert', field: key, code: 'invalid', message: `"${'k'.repeat(60)}…" (5000 characters) is not a permitted key.` }]);
  });
});

describe('GraphQL arguments (parseArgs): the same schemas, fields named as GraphQL callers write them', () => {
  it('names the field in camelCase in the message and keeps the schema\'s field for errors/graphql.ts to render', () => {
    const refused = (() => {
      try {
        parseArgs(updateBody, { state: 'dismissed' }, ALERT_INPUT);
      } catch (error) {
        return error as ValidationError;
      }
      throw new Error('the input was accepted');
    })();
    expect(refused.errors).toEqual([{ resource: 'DependencyAlert', field: 'dismissed_reason', code: 'invalid', message: '"dismissedReason" is required when "state" is "dismissed".' }]);
    expect(refused.message).toBe('"dismissedReason" is required when "state" is "dismissed".');
  });

  it('a 400 names it the same way', () => {
    expect(() => parseArgs(inclusionBody, { custom_property_name: 'bad name!' }, INCLUSION_INPUT)).toThrow(
      new BadRequestError('"customPropertyName" must contain only letters, digits, "_", "." and "-"; got "bad name!".'),
    );
  });
});

it("the wording check recognizes zod's own messages, so a clean result means something", () => {
  const raw = repoTemplateBody.safeParse({ use_default: 'yes', extra: 1 });
  expect(raw.error?.issues.map((issue) => wordingProblems(issue.message).length)).toEqual([1, 1]);
});

describe('the world file (orgsec load)', () => {
  async function worldMessage(world: Record<string, unknown>): Promise<string> {
    return parseSections(worldSourceOf(world)).then(() => 'accepted', (error: Error) => error.message);
  }
  const advisory = { svcsa_id: 'SVCSA-2026-0001', summary: 's', severity: 'low', published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };

  it.each([
    ['invalid_type', { users: [{ login: 'u', site_admin: 'yes' }] }, 'users[0].site_admin: must be true or false; got "yes"'],
    ['invalid_type, missing', { users: [{}] }, 'users[0].login: is required and must be a string'],
    ['invalid_value', { teams: [{ org: 'o', slug: 's', privacy: 'public' }] }, 'teams[0].privacy: must be one of secret, closed; got "public"'],
    ['too_big, a number', { advisories: [{ ...advisory, cvss: { vector_string: null, score: 11 } }] }, 'advisories[0].cvss.score: must be at most 10; got 11'],
    ['invalid_format, a timestamp', { advisories: [{ ...advisory, published_at: 'yesterday' }] }, 'advisories[0].published_at: must be a date and time in ISO 8601 form with a time zone, such as 2026-03-01T12:00:00Z; got "yesterday"'],
    ['invalid_format, a URL', { repositories: [{ owner: 'o', name: 'r', storage_records: [{ artifact_registry: 'vendorx-artifactory', artifact_registry_url: 'nope' }] }] }, 'repositories[0].storage_records[0].artifact_registry_url: must be a URL; got "nope"'],
    ['invalid_key', { repositories: [{ owner: 'o', name: 'r', custom_properties: { 'bad name': 'x' } }] }, 'repositories[0].custom_properties.bad name: has a key that is not allowed (must contain only letters, digits, "_", "." and "-"); got "bad name"'],
    ['invalid_union', { role_assignments: [{ org: 'o', role: {}, team: 't' }] }, 'role_assignments[0].role: must be a string or a number; got an object'],
    ['invalid_union, a discriminator', { tokens: [{ type: 'nope' }] }, 'tokens[0].type: must be one of classic, oauth, fine_grained, app_user, installation'],
    ['unrecognized_keys', { users: [{ login: 'u', nickname: 'x' }] }, 'users[0]: unknown key(s) "nickname"'],
    ['custom', { role_assignments: [{ org: 'o', role: 'r' }] }, 'role_assignments[0]: must name exactly one of "team" and "user"'],
  ])('%s: names the path, what is allowed and the value', async (_kind, world, line) => {
    const message = await worldMessage(world);
    expect(message).toBe(line);
    expect(wordingProblems(message)).toEqual([]);
  });

  it('too_small, a positive integer in an alert (alerts are checked batch by batch)', async () => {
    const alert = { repository: 'o/r', advisory: 'A', package: { ecosystem: 'npm', name: 'p' }, manifest_path: 'm', number: 0 };
    const error = await alertsSchemaError(worldSourceOf({ alerts: [alert] }));
    expect(error?.message).toBe('alerts[0].number: must be greater than 0; got 0');
  });

  it('never shows a declared token, even a malformed one', async () => {
    const secret = 'ghp_not valid but secret';
    const message = await worldMessage({ tokens: [{ type: 'classic', user: 'u', token: secret }] });
    expect(message).toBe('tokens[0].token: must be printable ASCII without spaces');
  });
});
