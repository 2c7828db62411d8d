import { DEFAULT_RATE_LIMIT_POLICY } from '../../src/rate-limits/rate-limit.policy';
import { hashTables } from '../helpers/table-hash';
import { gql } from '../helpers/graphql';
import { recordStatements } from '../helpers/statements';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { ORG, PRIVATE, PUBLIC, PUSH_CONTEXT, TT, loadJose, oidcTokensWorld, verifyAsRelyingParty, type Jose } from '../helpers/oidc-tokens-world';
import { commandActor } from '../../src/modules/audit-log/audit-actors';

// Interfaces.md Part 2 "OIDC tokens" through the real HTTP stack: the discovery document and
// JWKS, the mint verified with jose as a relying party does, the preview, the claims of
// reference.md Part 2 from orgsec's data, bad input, and key rotation under a clock the test sets.

const HOUR = 60 * 60 * 1000;
let now = Date.now();
let t: TestApp;
let jose: Jose;
let issuer: string;
let audience: string;
beforeAll(async () => {
  t = await createTestApp({ clock: () => now });
  await t.load(oidcTokensWorld());
  jose = await loadJose();
  issuer = `${t.url}/oidc`;
  audience = `https://${new URL(t.url).host}/${ORG}`;
});
afterAll(() => t.close());

const mintPath = (repo: string) => `/repos/${repo}/actions/oidc/token`;
const previewPath = (repo: string) => `/repos/${repo}/actions/oidc/customization/sub/preview`;
const mint = (body: object, token: string = TT.writer, repo = PRIVATE) => t.http().post(mintPath(repo)).set(bearer(token)).send(body);
const preview = (body: object, token: string = TT.writer, repo = PRIVATE) => t.http().post(previewPath(repo)).set(bearer(token)).send(body);
const verify = (token: string, options: { audience?: string; currentDate?: Date } = {}) =>
  verifyAsRelyingParty(jose, token, { jwksUrl: `${issuer}/.well-known/jwks`, issuer, audience: options.audience ?? audience, currentDate: options.currentDate ?? new Date(now) });
const ids = async (repo: string) => {
  const [owner, name] = repo.split('/');
  const row = await t.db.knex('repositories as r').join('accounts as o', 'o.id', 'r.owner_id').where({ 'o.login': owner, 'r.name': name }).first('r.id', 'r.owner_id');
  return { repo: String(row.id), owner: String(row.owner_id) };
};

describe('the issuer', () => {
  it('serves the discovery document at {issuer}/.well-known/openid-configuration', async () => {
    const res = await t.http().get('/oidc/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      issuer, jwks_uri: `${issuer}/.well-known/jwks`, subject_types_supported: ['public'], response_types_supported: ['id_token'],
      claims_supported: expect.arrayContaining(['sub', 'aud', 'repository_owner_id', 'job_workflow_ref', 'repo_property_*']),
      id_token_signing_alg_values_supported: ['RS256'], scopes_supported: ['openid'],
    });
  });

  it('serves public RSA keys only at {issuer}/.well-known/jwks, without a token', async () => {
    const res = await t.http().get('/oidc/.well-known/jwks');
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    const [key] = res.body.keys;
    expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    // 2048 bits: 256 bytes of modulus, 342 base64url characters.
    expect(Buffer.from(key.n, 'base64url')).toHaveLength(256);
    // The private key is in the database, and nowhere in the answer.
    const stored = await t.db.knex('oidc_signing_keys').first('private_key');
    expect(stored.private_key).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(res.text).not.toContain(stored.private_key.split('\n')[1]);
  });
});

describe('#64 mint', () => {
  it('answers 201 with a JWT that verifies against the JWKS with the issuer and default audience checks, its claims as answered', async () => {
    const res = await mint({ context: PUSH_CONTEXT });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['claims', 'value']);
    const { payload, protectedHeader } = await verify(res.body.value);
    const [jwk] = (await t.http().get('/oidc/.well-known/jwks')).body.keys;
    expect(protectedHeader).toEqual({ alg: 'RS256', kid: jwk.kid, typ: 'JWT' });
    expect(payload).toEqual(res.body.claims);
    const { repo, owner } = await ids(PRIVATE);
    const enterpriseId = String((await t.db.knex('enterprises').where({ slug: 'octo-ent' }).first('id')).id);
    const iat = Math.floor(now / 1000);
    expect(res.body.claims).toEqual({
      iss: issuer, aud: audience, sub: `repo:${PRIVATE}:ref:refs/heads/main`,
      actor: 'octo-writer', enterprise: 'octo-ent', enterprise_id: enterpriseId, event_name: 'push',
      job_workflow_ref: PUSH_CONTEXT.workflow_ref, job_workflow_sha: PUSH_CONTEXT.sha, ref: 'refs/heads/main', ref_type: 'branch',
      repository: PRIVATE, repository_id: repo, repository_owner: ORG, repository_owner_id: owner, repository_visibility: 'private',
      run_attempt: '1', run_id: '8123456790', run_number: '41', runner_environment: 'self-hosted', sha: PUSH_CONTEXT.sha, workflow: 'deploy',
      workflow_ref: PUSH_CONTEXT.workflow_ref, workflow_sha: PUSH_CONTEXT.sha,
      // Included at enterprise (environment) and organization (regions) level; cost.center is not included.
      repo_property_environment: 'prod', repo_property_regions: 'eu,us',
      iat, exp: iat + 300, nbf: iat - 300, jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('takes an audience, or several, and a relying party checks them', async () => {
    const one = await mint({ audience: 'sts.amazonaws.com', context: PUSH_CONTEXT });
    expect((await verify(one.body.value, { audience: 'sts.amazonaws.com' })).payload.aud).toBe('sts.amazonaws.com');
    await expect(verify(one.body.value)).rejects.toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'aud' });
    const two = await mint({ audience: ['sts.amazonaws.com', 'api://AzureADTokenExchange'], context: PUSH_CONTEXT });
    expect((await verify(two.body.value, { audience: 'api://AzureADTokenExchange' })).payload.aud).toEqual(['sts.amazonaws.com', 'api://AzureADTokenExchange']);
  });

  it('gives every token its own jti', async () => {
    const [a, b] = await Promise.all([mint({ context: PUSH_CONTEXT }), mint({ context: PUSH_CONTEXT })]);
    expect(a.body.claims.jti).not.toBe(b.body.claims.jti);
  });

  it('is refused to a reader (403), and answers 404 for a repository the caller cannot see, exactly as for a missing one', async () => {
    expect((await mint({ context: PUSH_CONTEXT }, TT.reader)).status).toBe(403);
    const hidden = await mint({ context: PUSH_CONTEXT }, TT.outsider);
    const missing = await mint({ context: PUSH_CONTEXT }, TT.outsider, `${ORG}/no-such-repo`);
    expect([hidden.status, hidden.body]).toEqual([404, missing.body]);
  });

  it('accepts an installation holding id_token: write, and refuses one without it (403 naming the permission)', async () => {
    expect((await mint({ context: PUSH_CONTEXT }, TT.installation)).status).toBe(201);
    const refused = await mint({ context: PUSH_CONTEXT }, TT.installationNoIdToken);
    expect([refused.status, refused.headers['x-accepted-service-permissions']]).toEqual([403, 'id_token=write']);
  });

  it('once the key and the repository are known, reads nothing but the data versions', async () => {
    await mint({ context: PUSH_CONTEXT });
    const recorded = recordStatements(t.db);
    try {
      expect((await mint({ context: PUSH_CONTEXT })).status).toBe(201);
    } finally {
      recorded.stop();
    }
    // The request's one snapshot of the data versions (and the caller's token: cached too).
    expect(recorded.sql.filter((sql) => !/data_versions/.test(sql))).toEqual([]);
  });
});

describe('#65 preview', () => {
  it('answers the claims a mint of the same request carries, but the time-based ones, and signs nothing', async () => {
    const body = { audience: 'sts.amazonaws.com', context: { ...PUSH_CONTEXT, environment: 'prod' } };
    const before = await hashTables(t.db.knex);
    const previewed = await preview(body);
    expect(await hashTables(t.db.knex)).toEqual(before);
    const minted = await mint(body);
    const { exp, iat, nbf, jti, ...timeless } = minted.body.claims;
    expect([exp, iat, nbf, jti].every((v) => v !== undefined)).toBe(true);
    expect(previewed.status).toBe(200);
    expect(previewed.body).toEqual({ sub: `repo:${PRIVATE}:environment:prod`, claims: timeless });
  });

  it('works without a token on a public repository, and is 404 without one on a private repository', async () => {
    const res = await t.http().post(previewPath(PUBLIC)).send({ context: PUSH_CONTEXT });
    expect([res.status, res.body.sub, res.body.claims.repository_visibility]).toEqual([200, `repo:${PUBLIC}:ref:refs/heads/main`, 'public']);
    expect((await t.http().post(previewPath(PRIVATE)).send({ context: PUSH_CONTEXT })).status).toBe(404);
  });

  it('is allowed to a reader, as #19 is', async () => {
    expect((await preview({ context: PUSH_CONTEXT }, TT.reader)).status).toBe(200);
  });
});

describe('the subject follows the templates of #17–#20', () => {
  const owner = bearer(TT.owner);
  const orgSub = `/orgs/${ORG}/actions/oidc/customization/sub`;
  const repoSub = `/repos/${PRIVATE}/actions/oidc/customization/sub`;
  afterAll(async () => {
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repo', 'context'], use_immutable_subject: false }).expect(201);
    await t.http().put(repoSub).set(owner).send({ use_default: true, use_immutable_subject: false }).expect(201);
  });

  it('the organization\'s template once the repository opts in, and immutable ids when asked, as #19\'s sub_claim_prefix says', async () => {
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repo', 'context', 'job_workflow_ref'] }).expect(201);
    const context = { ...PUSH_CONTEXT, environment: 'prod', job_workflow_ref: 'octo-org/octo-automation/.github/workflows/oidc.yml@refs/heads/main' };
    // Not opted in: the default.
    expect((await preview({ context })).body.sub).toBe(`repo:${PRIVATE}:environment:prod`);
    await t.http().put(repoSub).set(owner).send({ use_default: false }).expect(201);
    const minted = await mint({ context });
    expect((await verify(minted.body.value)).payload.sub).toBe(`repo:${PRIVATE}:environment:prod:job_workflow_ref:octo-org/octo-automation/.github/workflows/oidc.yml@refs/heads/main`);
    await t.http().put(repoSub).set(owner).send({ use_default: true, use_immutable_subject: true }).expect(201);
    const { repo, owner: ownerId } = await ids(PRIVATE);
    const immutable = (await mint({ context: PUSH_CONTEXT })).body.claims.sub;
    expect(immutable).toBe(`repo:${ORG}@${ownerId}/octo-repo@${repo}:ref:refs/heads/main`);
    expect((await t.http().get(repoSub).set(owner)).body.sub_claim_prefix).toBe(immutable.slice(0, -':ref:refs/heads/main'.length));
  });

  it('a repository\'s own keys, in order, with a ":" written %3A', async () => {
    await t.http().put(repoSub).set(owner).send({ use_default: false, include_claim_keys: ['environment', 'repository_owner'], use_immutable_subject: false }).expect(201);
    expect((await preview({ context: { ...PUSH_CONTEXT, environment: 'production:eastus' } })).body.sub).toBe(`environment:production%3Aeastus:repository_owner:${ORG}`);
    await t.http().put(repoSub).set(owner).send({ use_default: false, include_claim_keys: ['repository_owner', 'repository_visibility', 'repo_property_environment'] }).expect(201);
    expect((await preview({ context: PUSH_CONTEXT })).body.sub).toBe(`repository_owner:${ORG}:repository_visibility:private:repo_property_environment:prod`);
  });
});

describe('bad input', () => {
  const { sha: _sha, ...withoutSha } = PUSH_CONTEXT;
  it.each<[string, unknown, string]>([
    ['no context', {}, 'context'],
    ['a context without sha', { context: withoutSha }, 'context.sha'],
    ['a run_id that is a number', { context: { ...PUSH_CONTEXT, run_id: 8123456790 } }, 'context.run_id'],
    ['a run_number that is not digits', { context: { ...PUSH_CONTEXT, run_number: 'forty-one' } }, 'context.run_number'],
    ['an empty ref', { context: { ...PUSH_CONTEXT, ref: '' } }, 'context.ref'],
    ['an unknown ref_type', { context: { ...PUSH_CONTEXT, ref_type: 'commit' } }, 'context.ref_type'],
    ['an unknown context key', { context: { ...PUSH_CONTEXT, job: 'build' } }, 'context.job'],
    ['an audience that is a number', { audience: 5, context: PUSH_CONTEXT }, 'audience'],
    ['an audience list with a number', { audience: ['sts.amazonaws.com', 7], context: PUSH_CONTEXT }, 'audience'],
    ['an empty audience list', { audience: [], context: PUSH_CONTEXT }, 'audience'],
    ['a control character in the actor', { context: { ...PUSH_CONTEXT, actor: 'octo\u0000writer' } }, 'context.actor'],
    ['an unknown key', { context: PUSH_CONTEXT, scope: 'openid' }, 'scope'],
  ])('%s answers 422 naming it, on both operations, and writes nothing', async (_what, body, field) => {
    const before = await hashTables(t.db.knex);
    for (const send of [mint, preview]) {
      const res = await send(body as object);
      expect(res.status).toBe(422);
      expect((res.body.errors as Array<{ field: string }>).map((e) => e.field)).toContain(field);
    }
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('a body that is not an object is 400, as everywhere', async () => {
    const res = await t.http().post(mintPath(PRIVATE)).set(bearer(TT.writer)).set('Content-Type', 'application/json').send('["push"]');
    expect([res.status, res.body.message]).toEqual([400, 'Body should be a JSON object']);
  });
});

describe('GraphQL Repository.oidcPreview', () => {
  const query = `query($context: OidcRunContextInput!, $audience: [String!]) {
    repository(owner: "${ORG}", name: "octo-repo") { oidcPreview(context: $context, audience: $audience) { sub claims } }
  }`;
  const camel = { eventName: 'push', ref: 'refs/heads/main', sha: PUSH_CONTEXT.sha, workflow: 'deploy', actor: 'octo-writer', runId: '8123456790', runNumber: '41', workflowRef: PUSH_CONTEXT.workflow_ref };

  it('answers what the REST preview answers', async () => {
    const res = await gql(t, query, { token: TT.writer, variables: { context: camel, audience: 'sts.amazonaws.com' } });
    const rest = await preview({ audience: 'sts.amazonaws.com', context: PUSH_CONTEXT });
    expect(res.errors).toBeUndefined();
    expect(res.data.repository.oidcPreview).toEqual(rest.body);
  });

  it('refuses a bad value naming the field as GraphQL callers write it', async () => {
    const res = await gql(t, query, { token: TT.writer, variables: { context: { ...camel, runId: 'latest' } } });
    expect(res.errors?.[0]?.message).toMatch(/context\.runId/);
    expect(res.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('key rotation', () => {
  it('a new key signs; tokens of the replaced one verify for a day, then its key leaves the JWKS', async () => {
    const before = await mint({ context: PUSH_CONTEXT });
    const oldKid = (await verify(before.body.value)).protectedHeader.kid;
    const { kid, replaced } = await t.services.oidcSigningKeys.rotate(commandActor());
    expect(replaced).toBe(oldKid);
    const after = await mint({ context: PUSH_CONTEXT });
    expect((await verify(after.body.value)).protectedHeader.kid).toBe(kid);
    expect((await verify(before.body.value)).protectedHeader.kid).toBe(oldKid);
    expect((await t.http().get('/oidc/.well-known/jwks')).body.keys.map((k: { kid: string }) => k.kid)).toEqual([kid, oldKid]);

    now += 23 * HOUR;
    expect((await t.http().get('/oidc/.well-known/jwks')).body.keys.map((k: { kid: string }) => k.kid)).toEqual([kid, oldKid]);
    now += 2 * HOUR;
    expect((await t.http().get('/oidc/.well-known/jwks')).body.keys.map((k: { kid: string }) => k.kid)).toEqual([kid]);
    // Checked at the time it was issued: only the key is missing.
    await expect(verify(before.body.value, { currentDate: new Date(before.body.claims.iat * 1000) })).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
    const fresh = await mint({ context: PUSH_CONTEXT });
    expect((await verify(fresh.body.value)).protectedHeader.kid).toBe(kid);
  });
});

describe('rate limits', () => {
  it('a mint or a preview is a request like any other, not a write: the write limit does not hold it back', async () => {
    const limited = await createTestApp({ rateLimits: { ...DEFAULT_RATE_LIMIT_POLICY, writeLimit: 2, writeWindowSeconds: 60 } });
    try {
      await limited.load(oidcTokensWorld());
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await limited.http().post(mintPath(PRIVATE)).set(bearer(TT.writer)).send({ context: PUSH_CONTEXT })).status);
        statuses.push((await limited.http().post(previewPath(PRIVATE)).set(bearer(TT.writer)).send({ context: PUSH_CONTEXT })).status);
      }
      expect(statuses).toEqual([201, 200, 201, 200, 201, 200]);
      // Writes are still counted: the third in the window is refused.
      const sub = `/repos/${PRIVATE}/actions/oidc/customization/sub`;
      const writes = [];
      for (let i = 0; i < 3; i++) writes.push((await limited.http().put(sub).set(bearer(TT.owner)).send({ use_default: true })).status);
      expect(writes).toEqual([201, 201, 422]);
    } finally {
      await limited.close();
    }
  });
});
