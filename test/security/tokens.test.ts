import fs from 'node:fs';
import { Writable } from 'node:stream';
import { hashToken } from '../../src/auth/token-format';
import { createLogger } from '../../src/logger';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { dialect } from '../helpers/test-database';
import { commandActor } from '../../src/modules/audit-log/audit-actors';

// Issue 8, tokens: generated tokens are recognizable and checksummed, a bad checksum is
// refused before the database is asked, only hashes are stored, and no raw token reaches
// the database files or the logs, even when a client puts one in a query string.

const ORG = 'tk-org';
const ROLES = `/orgs/${ORG}/organization-roles`;

function world() {
  return {
    users: [{ login: 'tk-owner' }, { login: 'tk-member' }],
    organizations: [{ login: ORG, organization_roles_enabled: true, owners: ['tk-owner'], members: ['tk-member'] }],
  };
}

/** Every line the app logs, kept in memory. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

/** The database's whole stored content as bytes: the SQLite file with its WAL, or every PostgreSQL row as text. */
async function storedBytes(t: TestApp): Promise<Buffer> {
  if (dialect === 'sqlite') {
    const files = [t.db.url, `${t.db.url}-wal`, `${t.db.url}-shm`].filter((f) => fs.existsSync(f));
    return Buffer.concat(files.map((f) => fs.readFileSync(f)));
  }
  const tables = await t.db.knex('information_schema.tables').where('table_schema', t.db.knex.raw('current_schema()')).pluck('table_name');
  const rows = await Promise.all(tables.map((table: string) => t.db.knex.raw('SELECT t::text AS row FROM ?? t', [table])));
  return Buffer.from(rows.flatMap((r) => r.rows.map((row: { row: string }) => row.row)).join('\n'));
}

describe('tokens', () => {
  let t: TestApp;
  const log = new LogCapture();
  const raw: Record<'classic' | 'fineGrained' | 'installation', string> = { classic: '', fineGrained: '', installation: '' };

  beforeAll(async () => {
    t = await createTestApp({ logger: createLogger('info', log) });
    await t.load(world());
    const issue = async (declaration: object) => (await t.services.tokens.create(declaration as never, commandActor())).token!;
    raw.classic = await issue({ type: 'classic', user: 'tk-owner', scopes: ['admin:org'] });
    raw.fineGrained = await issue({ type: 'fine_grained', user: 'tk-owner', resource_owner: ORG, repositories: 'all', permissions: { organization_custom_roles: 'read' } });
    raw.installation = await issue({ type: 'installation', app: 'tk-app', resource_owner: ORG, repositories: 'all', permissions: { organization_custom_roles: 'read' } });
  });
  afterAll(() => t.close());

  it('are generated with a type prefix and a checksum, and work', async () => {
    expect(raw.classic).toMatch(/^osp_[0-9A-Za-z]{36}$/);
    expect(raw.fineGrained).toMatch(/^osf_[0-9A-Za-z]{36}$/);
    expect(raw.installation).toMatch(/^oss_[0-9A-Za-z]{36}$/);
    for (const token of Object.values(raw)) expect((await t.http().get(ROLES).set(bearer(token))).status).toBe(200);
  });

  it('with a bad checksum, are refused with 401 without a database look-up', async () => {
    const lastChar = raw.classic.at(-1)!;
    const corrupted = raw.classic.slice(0, -1) + (lastChar === 'a' ? 'b' : 'a');
    const unknownButWellFormed = raw.classic.replace(/^osp_/, 'oso_'); // a valid checksum, no such token
    const queriesDuring = async (token: string) => {
      const sql: string[] = [];
      const listener = (query: { sql: string }) => sql.push(query.sql);
      t.db.knex.on('query', listener);
      const res = await t.http().get(ROLES).set(bearer(token));
      t.db.knex.off('query', listener);
      return { status: res.status, body: res.body, tokenQueries: sql.filter((q) => /\btokens\b/.test(q)).length };
    };
    const refused = await queriesDuring(corrupted);
    expect(refused).toEqual({ status: 401, body: expect.objectContaining({ message: 'Bad credentials' }), tokenQueries: 0 });
    // The control: a token with a valid checksum is looked up, and refused only then.
    const looked = await queriesDuring(unknownButWellFormed);
    expect(looked.status).toBe(401);
    expect(looked.tokenQueries).toBeGreaterThan(0);
  });

  it('in a query string, are refused, on REST and GraphQL, and redacted from the log', async () => {
    const answers = [
      await t.http().get(`${ROLES}?access_token=${raw.classic}`),
      await t.http().get(`${ROLES}?token=${raw.fineGrained}`).set(bearer(raw.fineGrained)),
      await t.http().post(`/graphql?access_token=${raw.installation}`).send({ query: '{ __typename }' }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/Authorization header/);
    }
    const logged = log.lines.map((line) => JSON.parse(line)).filter((entry) => /access_token|token=/.test(entry.url ?? ''));
    expect(logged).toHaveLength(3);
    for (const entry of logged) expect(entry.url).toMatch(/=%5BREDACTED%5D$/);
  });

  it('never appear raw in the database files or the logs; only their hashes are stored', async () => {
    // Use every token once more, refused uses included, so the log has seen them all.
    await t.http().put(`${ROLES}/users/tk-member/8132`).set(bearer(raw.classic));
    await t.http().put(`${ROLES}/users/tk-member/8132`).set(bearer(raw.installation)); // 403: no members:write
    await t.http().post('/graphql').set(bearer(raw.fineGrained)).send({ query: `{ organization(login: "${ORG}") { login } }` });
    await t.http().get(ROLES).set('Authorization', `token ${raw.classic}`);

    const stored = await storedBytes(t);
    const logText = log.text;
    expect(log.lines.length).toBeGreaterThan(10); // the search below searched real logs
    for (const token of Object.values(raw)) {
      expect(stored.includes(hashToken(token))).toBe(true); // the search finds what is stored
      expect(stored.includes(token)).toBe(false);
      expect(stored.includes(token.slice(4))).toBe(false); // nor its secret part without the prefix
      expect(logText.includes(token.slice(4))).toBe(false);
    }
  });
});
