import fs from 'node:fs';
import path from 'node:path';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';
import { linksOf, pathOf } from '../helpers/links';
import { A, ORG, PRIVATE, PUBLIC, attestationsWorld } from '../helpers/attestations-world';
import { createSigner, signedBundle, statement, type Signer } from '../helpers/signed-bundles';

const FIXTURE_PATH = path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.json');
const fixture = () => JSON.parse(fs.readFileSync(FIXTURE_PATH, 'utf8')) as Record<string, any>;
const FIXTURE_DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';

let t: TestApp;
let signer: Signer;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(attestationsWorld());
  signer = await createSigner();
});
afterAll(() => t.close());

const owner = bearer(A.owner);
const create = (repo: string, bundle: unknown, auth = owner) => t.http().post(`/repos/${repo}/attestations`).set(auth).send({ bundle });
const list = (repo: string, digest: string, query = '', auth: Record<string, string> = owner) => t.http().get(`/repos/${repo}/attestations/${digest}${query}`).set(auth);

describe('#21 POST /repos/{owner}/{repo}/attestations', () => {
  it('accepts the real public bundle: 201 {id}', async () => {
    const res = await create(PRIVATE, fixture());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number) });
  });

  it('answers the same id for the same bundle sent again, storing it once', async () => {
    const first = await create(PRIVATE, fixture());
    const second = await create(PRIVATE, fixture());
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    const repo = await t.db.knex('repositories').where({ name: 'secret-app' }).first('id');
    expect(await t.db.knex('attestations').where({ repo_id: repo.id })).toHaveLength(1);
  });

  it('stores the same bundle in another repository as another attestation', async () => {
    const here = await create(PRIVATE, fixture());
    const there = await create(PUBLIC, fixture());
    expect(there.status).toBe(201);
    expect(there.body.id).not.toBe(here.body.id);
  });

  it('refuses the real bundle with one byte of its payload changed (422, saying why) and stores nothing', async () => {
    const bundle = fixture();
    const payload = Buffer.from(bundle.dsseEnvelope.payload, 'base64');
    payload[200] = payload[200]! ^ 0x20;
    bundle.dsseEnvelope.payload = payload.toString('base64');
    const before = await hashTables(t.db.knex);
    const res = await create(PRIVATE, bundle);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ resource: 'Attestation', field: 'bundle', code: 'custom', message: 'the DSSE signature does not verify against the certificate\'s public key' }]);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it.each([
    ['a wrong payload type', () => signedBundle(signer, statement(), { payloadType: 'text/plain' }), /payloadType/],
    ['a statement without a sha256 subject', () => signedBundle(signer, statement({ subjects: [{ digest: { md5: 'x' } }] })), /sha256/],
    ['an unknown media type', () => signedBundle(signer, statement(), { mediaType: 'application/json' }), /mediaType/],
  ])('refuses a bundle with %s (422 naming the reason)', async (_what, build, reason) => {
    const res = await create(PRIVATE, build());
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toMatch(reason);
  });

  it.each([
    ['no bundle', {}, 'bundle', 'missing_field'],
    ['a bundle that is not an object', { bundle: 'x' }, 'bundle', 'invalid'],
    ['an unknown key', { bundle: {}, repository: 'x' }, 'repository', 'invalid'],
  ])('when the body has %s, answers 422 naming the field', async (_what, body, field, code) => {
    const res = await t.http().post(`/repos/${PRIVATE}/attestations`).set(owner).send(body);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ resource: 'Attestation', field, code })]));
  });

  it('answers a body over 4 MiB with 413, and accepts a bundle with a large predicate under it', async () => {
    const big = { bundle: { pad: 'x'.repeat(4 * 1024 * 1024) } };
    const res = await t.http().post(`/repos/${PRIVATE}/attestations`).set(owner).set('Content-Type', 'application/json').send(JSON.stringify(big));
    expect(res.status).toBe(413);
    const sbom = signedBundle(signer, statement({ predicateType: 'https://spdx.dev/Document/v2.3', predicate: { packages: 'p'.repeat(2 * 1024 * 1024) } }));
    expect((await create(PRIVATE, sbom)).status).toBe(201);
  });

  it('answers deeply nested JSON with 400 without walking it', async () => {
    const deep = `{"bundle":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const res = await t.http().post(`/repos/${PRIVATE}/attestations`).set(owner).set('Content-Type', 'application/json').send(deep);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/nested|JSON/);
  });

  it('when the repository does not exist, answers 404', async () => {
    expect((await create(`${ORG}/nope`, fixture())).status).toBe(404);
  });
});

describe('#22 GET /repos/{owner}/{repo}/attestations/{subject_digest}', () => {
  it('finds the real bundle by its digest, returning it exactly as it was sent', async () => {
    await create(PRIVATE, fixture());
    const res = await list(PRIVATE, FIXTURE_DIGEST);
    expect(res.status).toBe(200);
    const repo = await t.db.knex('repositories').where({ name: 'secret-app' }).first('id');
    expect(res.body.attestations).toEqual([
      { bundle: fixture(), repository_id: Number(repo.id), bundle_url: expect.stringMatching(new RegExp(`/repos/${PRIVATE}/attestations/bundles/\\d+$`)), initiator: 'att-owner' },
    ]);
  });

  it('serves the bundle at bundle_url', async () => {
    const item = (await list(PRIVATE, FIXTURE_DIGEST)).body.attestations[0];
    const res = await t.http().get(pathOf(item.bundle_url)).set(owner);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(fixture());
    expect((await t.http().get(`/repos/${PUBLIC}/attestations/bundles/999999`).set(owner)).status).toBe(404);
  });

  it.each([
    ['provenance', 1],
    ['https://slsa.dev/provenance/v1', 1],
    ['sbom', 0],
    ['release', 0],
    ['https://example.com/unknown', 0],
  ])('with predicate_type=%s, finds %i', async (predicateType, count) => {
    const res = await list(PRIVATE, FIXTURE_DIGEST, `?predicate_type=${encodeURIComponent(predicateType)}`);
    expect(res.status).toBe(200);
    expect(res.body.attestations).toHaveLength(count);
  });

  it('finds SPDX and CycloneDX predicates by "sbom" and release ones by "release"', async () => {
    const digest = 'b'.repeat(64);
    const subjects = [{ name: 'app', digest: { sha256: digest } }];
    for (const predicateType of ['https://spdx.dev/Document/v2.3', 'https://cyclonedx.org/bom', 'https://in-toto.io/attestation/release/v0.1']) {
      expect((await create(PUBLIC, signedBundle(signer, statement({ subjects, predicateType })))).status).toBe(201);
    }
    expect((await list(PUBLIC, `sha256:${digest}`, '?predicate_type=sbom')).body.attestations).toHaveLength(2);
    expect((await list(PUBLIC, `sha256:${digest}`, '?predicate_type=release')).body.attestations).toHaveLength(1);
    expect((await list(PUBLIC, `sha256:${digest}`)).body.attestations).toHaveLength(3);
  });

  it('answers an unknown digest with an empty list, and accepts upper-case hex', async () => {
    expect((await list(PRIVATE, `sha256:${'0'.repeat(64)}`)).body).toEqual({ attestations: [] });
    expect((await list(PRIVATE, FIXTURE_DIGEST.toUpperCase().replace('SHA256', 'sha256'))).body.attestations).toHaveLength(1);
  });

  it.each(['8aad120b', 'sha256:xyz', 'sha512:' + 'a'.repeat(64), `sha256:${'a'.repeat(63)}`, 'md5:abc'])('answers a malformed digest (%s) with 422 naming subject_digest', async (digest) => {
    const res = await list(PRIVATE, digest);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: 'subject_digest', code: 'invalid' });
  });

  it('does not list an attestation of another repository with the same digest', async () => {
    await t.load({ repositories: [{ owner: ORG, name: 'empty-app', private: false }] });
    expect((await list(`${ORG}/empty-app`, FIXTURE_DIGEST)).body.attestations).toEqual([]);
  });

  it('refuses the page parameter with 400', async () => {
    const res = await list(PRIVATE, FIXTURE_DIGEST, '?page=2');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Pagination using the `page` parameter is not supported.');
  });

  it('refuses a forged cursor with 400', async () => {
    expect((await list(PRIVATE, FIXTURE_DIGEST, '?after=bm90LWEtY3Vyc29y')).status).toBe(400);
    expect((await list(PRIVATE, FIXTURE_DIGEST, `?after=${Buffer.from(JSON.stringify({ l: 'attestations', v: ['x'] })).toString('base64url')}`)).status).toBe(400);
  });

  it('on a public repository works without a token; on a private one it is 404, like a missing repository', async () => {
    expect((await list(PUBLIC, FIXTURE_DIGEST, '', {})).status).toBe(200);
    const hidden = await list(PRIVATE, FIXTURE_DIGEST, '', {});
    const missing = await list(`${ORG}/nope`, FIXTURE_DIGEST, '', {});
    expect(hidden.status).toBe(404);
    expect(hidden.text).toBe(missing.text);
  });
});

describe('#22 cursor pagination', () => {
  const digest = 'c'.repeat(64);
  const ids: number[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 7; i++) {
      const bundle = signedBundle(signer, statement({ subjects: [{ name: `build-${i}`, digest: { sha256: digest } }] }));
      ids.push((await create(PUBLIC, bundle)).body.id);
    }
  });

  const namesOf = (body: { attestations: Array<{ bundle: { dsseEnvelope: { payload: string } } }> }) =>
    body.attestations.map((a) => JSON.parse(Buffer.from(a.bundle.dsseEnvelope.payload, 'base64').toString()).subject[0].name as string);

  it('lists newest first, and follows Link rel="next" to the end seeing each once', async () => {
    const seen: string[] = [];
    let next: string | undefined = `/repos/${PUBLIC}/attestations/sha256:${digest}?per_page=3`;
    let pages = 0;
    while (next) {
      const res = await t.http().get(next).set(owner);
      expect(res.status).toBe(200);
      seen.push(...namesOf(res.body));
      const links = linksOf(res.headers.link);
      expect(links.last).toBeUndefined();
      next = links.next ? pathOf(links.next) : undefined;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['build-6', 'build-5', 'build-4', 'build-3', 'build-2', 'build-1', 'build-0']);
  });

  it('goes back with rel="prev", and offers rel="first"', async () => {
    const first = await t.http().get(`/repos/${PUBLIC}/attestations/sha256:${digest}?per_page=3`).set(owner);
    const second = await t.http().get(pathOf(linksOf(first.headers.link).next!)).set(owner);
    const links = linksOf(second.headers.link);
    expect(Object.keys(links).sort()).toEqual(['first', 'next', 'prev']);
    const back = await t.http().get(pathOf(links.prev!)).set(owner);
    expect(namesOf(back.body)).toEqual(namesOf(first.body));
    expect(new URL(links.first!).searchParams.get('per_page')).toBe('3');
  });

  it('shows a newly added attestation on the first page without disturbing a walk already under way', async () => {
    const first = await t.http().get(`/repos/${PUBLIC}/attestations/sha256:${digest}?per_page=3`).set(owner);
    await create(PUBLIC, signedBundle(signer, statement({ subjects: [{ name: 'build-7', digest: { sha256: digest } }] })));
    const second = await t.http().get(pathOf(linksOf(first.headers.link).next!)).set(owner);
    expect(namesOf(second.body)).toEqual(['build-3', 'build-2', 'build-1']);
    const fresh = await t.http().get(`/repos/${PUBLIC}/attestations/sha256:${digest}?per_page=3`).set(owner);
    expect(namesOf(fresh.body)[0]).toBe('build-7');
  });
});
