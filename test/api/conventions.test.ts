import { createTestApp, bearer, type TestApp } from '../helpers/test-app';
import { ORG, TOKENS, rolesWorld } from '../helpers/roles-world';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(rolesWorld());
});
afterAll(() => t.close());

const rolesPath = `/orgs/${ORG}/organization-roles`;

describe('the version header', () => {
  it('when absent, answers with the current version selected', async () => {
    const res = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic));
    expect(res.status).toBe(200);
    expect(res.headers['x-service-api-version-selected']).toBe('2026-03-10');
  });

  it('when it names the supported version, is accepted', async () => {
    const res = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic)).set('X-Service-Api-Version', '2026-03-10');
    expect(res.status).toBe(200);
  });

  it('when it names another version, answers 400 naming the supported one', async () => {
    const res = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic)).set('X-Service-Api-Version', '2022-11-28');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message:
        'The version you specified in the "X-Service-Api-Version" request header, "2022-11-28", is not a supported version. The following versions are currently supported: "2026-03-10".',
      documentation_url: expect.stringMatching(/\/docs/),
      status: '400',
    });
  });
});

describe('the accept header', () => {
  it.each(['application/vnd.service+json', 'application/json', 'application/vnd.github.v3+json', '*/*'])('accepts %s', async (accept) => {
    const res = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic)).set('Accept', accept);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('authentication', () => {
  it('when no token is sent to an operation that needs one, answers 401 "Requires authentication"', async () => {
    const res = await t.http().get(rolesPath);
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Requires authentication');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it.each([
    ['an unknown token', 'Bearer nope-not-a-token'],
    ['an expired token', `Bearer ${TOKENS.expired}`],
    ['a revoked token', `Bearer ${TOKENS.revoked}`],
    ['a malformed header', 'Basic dXNlcjpwYXNz'],
    ['a scheme without a token', 'Bearer'],
    ['a generated-looking token with a bad checksum', 'Bearer osp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa000000'],
  ])('with %s, answers 401 "Bad credentials", never a downgrade to anonymous', async (_name, header) => {
    const res = await t.http().get(rolesPath).set('Authorization', header);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Bad credentials', documentation_url: expect.any(String), status: '401' });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('accepts the "token" scheme as well as "Bearer"', async () => {
    const res = await t.http().get(rolesPath).set('Authorization', `token ${TOKENS.ownerClassic}`);
    expect(res.status).toBe(200);
  });

  it('refuses a token in the query string', async () => {
    const res = await t.http().get(`${rolesPath}?access_token=${TOKENS.ownerClassic}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/query string/);
  });

  it('announces the token scopes and the accepted scopes on classic-token answers', async () => {
    const res = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic));
    expect(res.headers['x-oauth-scopes']).toBe('admin:org');
    expect(res.headers['x-accepted-oauth-scopes']).toBe('admin:org');
  });
});

describe('errors and bodies', () => {
  it('answers an unknown path with the 404 body', async () => {
    const res = await t.http().get('/no/such/path').set(bearer(TOKENS.ownerClassic));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
  });

  it('answers malformed JSON with 400 "Problems parsing JSON"', async () => {
    const res = await t.http()
      .put(`${rolesPath}/users/member/1`)
      .set(bearer(TOKENS.ownerClassic))
      .set('Content-Type', 'application/json')
      .send('{"oops": ');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Problems parsing JSON');
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.http()
      .put(`${rolesPath}/users/member/1`)
      .set(bearer(TOKENS.ownerClassic))
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
    expect(res.body.status).toBe('413');
  });

  it('never shows a stack trace: error bodies have exactly the documented keys', async () => {
    const res = await t.http().get(`${rolesPath}/%E0%A4%A`).set(bearer(TOKENS.ownerClassic));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(['documentation_url', 'message', 'status']));
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('varies on Accept and Authorization', async () => {
    const res = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic));
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.headers.vary).toMatch(/Authorization/);
  });
});

describe('conditional requests', () => {
  it('answers If-None-Match with the current ETag with 304 and no body, repeating the ETag', async () => {
    const first = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic));
    expect(first.headers.etag).toBeDefined();
    const second = await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic)).set('If-None-Match', first.headers.etag!);
    expect(second.status).toBe(304);
    expect(second.text).toBe('');
    expect(second.headers.etag).toBe(first.headers.etag);
  });
});

describe('names', () => {
  it('matches organization names case-insensitively', async () => {
    const res = await t.http().get(`/orgs/${ORG.toUpperCase()}/organization-roles`).set(bearer(TOKENS.ownerClassic));
    expect(res.status).toBe(200);
    expect(res.body.roles[0].organization.login).toBe(ORG);
  });
});

describe('health', () => {
  it('answers /healthz with {"status":"ok"} while the process is up', async () => {
    const res = await t.http().get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('bad requests never become 500s', () => {
  it('answers a corrupt compressed body with 400', async () => {
    for (const encoding of ['gzip', 'deflate']) {
      const res = await t.http()
        .put(`${rolesPath}/users/member/1`)
        .set(bearer(TOKENS.ownerClassic))
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send('xx');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: expect.any(String), documentation_url: expect.any(String), status: '400' });
    }
  });

  it.each(['exa mple', 'a:99999999', '[::1', 'a%zz', 'a/b', 'user@host'])('answers a malformed Host header (%s) with 400', async (host) => {
    const res = await t.http().get(`${rolesPath}/1/users?per_page=1`).set(bearer(TOKENS.ownerClassic)).set('Host', host);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Host/);
  });

  it.each(['%00', 'octo%00org', '%1F', 'a%7Fb'])('answers a name with a control character (%s) with 422, on every database', async (name) => {
    const requests = [
      t.http().get(`/orgs/${name}/organization-roles`),
      t.http().delete(`${rolesPath}/users/${name}`),
      t.http().put(`${rolesPath}/teams/${name}/1`),
    ];
    for (const request of requests) {
      const res = await request.set(bearer(TOKENS.ownerClassic));
      expect(res.status).toBe(422);
    }
  });
});
