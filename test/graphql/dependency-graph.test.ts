import { gql } from '../helpers/graphql';
import { hashTables } from '../helpers/table-hash';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { PRIVATE, S, snapshot, snapshotsWorld } from '../helpers/snapshots-world';

// GraphQL's door to S1 and to the current dependencies: the same service and checks as REST.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(snapshotsWorld());
});
afterAll(() => t.close());

const [OWNER, NAME] = PRIVATE.split('/') as [string, string];
const SUBMIT = `mutation($input: SubmitDependencySnapshotInput!) { submitDependencySnapshot(input: $input) { id createdAt result message } }`;
const DEPENDENCIES = `query($owner: String!, $name: String!, $first: Int, $after: String) {
  repository(owner: $owner, name: $name) { dependencies(first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node { package { ecosystem name } version packageUrl manifestPath scope relationship } }
  } } }`;

describe('submitDependencySnapshot and Repository.dependencies', () => {
  it('submits a snapshot (SUCCESS) whose packages the repository lists as a connection, page by page', async () => {
    const res = await gql(t, SUBMIT, { token: S.owner, variables: { input: { owner: OWNER, repository: NAME, snapshot: snapshot() } } });
    expect(res.errors).toBeUndefined();
    expect(res.data.submitDependencySnapshot).toEqual({ id: expect.any(Number), createdAt: expect.any(String), result: 'SUCCESS', message: expect.any(String) });

    const first = await gql(t, DEPENDENCIES, { token: S.owner, variables: { owner: OWNER, name: NAME, first: 1 } });
    expect(first.errors).toBeUndefined();
    const page = first.data.repository.dependencies;
    expect(page.totalCount).toBe(2);
    expect(page.pageInfo.hasNextPage).toBe(true);
    expect(page.edges.map((e: any) => e.node)).toEqual([
      { package: { ecosystem: 'npm', name: 'left-pad' }, version: '1.3.0', packageUrl: 'pkg:npm/left-pad@1.3.0', manifestPath: 'app/package-lock.json', scope: 'runtime', relationship: 'direct' },
    ]);
    const second = await gql(t, DEPENDENCIES, { token: S.owner, variables: { owner: OWNER, name: NAME, first: 5, after: page.pageInfo.endCursor } });
    expect(second.data.repository.dependencies.edges.map((e: any) => e.node)).toEqual([
      { package: { ecosystem: 'npm', name: '@babel/core' }, version: '7.0.0', packageUrl: 'pkg:npm/%40babel/core@7.0.0', manifestPath: 'app/package-lock.json', scope: 'development', relationship: 'indirect' },
    ]);
    expect(second.data.repository.dependencies.pageInfo.hasNextPage).toBe(false);
  });

  it('answers ACCEPTED for another ref, as REST does', async () => {
    const res = await gql(t, SUBMIT, { token: S.owner, variables: { input: { owner: OWNER, repository: NAME, snapshot: snapshot({ ref: 'refs/heads/other' }) } } });
    expect(res.data.submitDependencySnapshot.result).toBe('ACCEPTED');
  });

  it('refuses an invalid snapshot naming the field, storing nothing', async () => {
    const before = await hashTables(t.db.knex);
    const res = await gql(t, SUBMIT, { token: S.owner, variables: { input: { owner: OWNER, repository: NAME, snapshot: snapshot({ sha: 'nope' }) } } });
    expect(res.data?.submitDependencySnapshot ?? null).toBeNull();
    expect(res.errors?.[0]?.message).toContain('snapshot.sha');
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('refuses a reader (FORBIDDEN) and hides the repository from an outsider (NOT_FOUND), storing nothing', async () => {
    const before = await hashTables(t.db.knex);
    const reader = await gql(t, SUBMIT, { token: S.reader, variables: { input: { owner: OWNER, repository: NAME, snapshot: snapshot() } } });
    expect(reader.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const outsider = await gql(t, SUBMIT, { token: S.outsider, variables: { input: { owner: OWNER, repository: NAME, snapshot: snapshot() } } });
    expect(outsider.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect(await hashTables(t.db.knex)).toEqual(before);
  });
});
