import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProgram } from '../../src/cli/program';
import type { Output } from '../../src/cli/output';
import { createServices } from '../../src/composition';
import { openDatabase } from '../../src/database/connection';
import { migrations } from '../../db/migrations';
import { WorldError } from '../../src/modules/world/world.loader';
import { ALERT_BATCH_SIZE } from '../../src/modules/world/world.source';
import { batchWorld } from '../helpers/batch-world';
import { hashTables } from '../helpers/table-hash';
import { createTestDatabase, dialect, type TestDatabase } from '../helpers/test-database';
import { sharedDatabase } from '../helpers/instances';

// The CLI reaches the test database through --database: a SQLite file, or a PostgreSQL
// URL naming the test file's schema.
const itSqlite = it;

const DEMO_PATH = path.join(__dirname, '..', '..', 'db', 'demo-world.json');

interface Run {
  out: string[];
  err: string[];
}

/** The demo world, whatever ran before: loading it again changes nothing. */
async function ensureDemoLoaded(): Promise<void> {
  await createServices(db).world.load(JSON.parse(fs.readFileSync(DEMO_PATH, 'utf8')));
}

/** Runs `orgsec ...args` in-process, collecting what it prints. Rejects as the command fails. */
async function orgsec(...args: string[]): Promise<Run> {
  const run: Run = { out: [], err: [] };
  const output: Output = { out: (line) => run.out.push(line), err: (line) => run.err.push(line) };
  await buildProgram(output).exitOverride().parseAsync(['node', 'orgsec', ...args]);
  return run;
}

/** Runs a command that must fail; returns its error. */
async function orgsecFailing(...args: string[]): Promise<Error> {
  const error = await orgsec(...args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** Authenticates a token against the database file, as a separate process would. */
async function authenticate(databaseUrl: string, token: string) {
  const database = openDatabase(databaseUrl);
  try {
    return await createServices(database).at(undefined).authenticator.authenticate(`Bearer ${token}`);
  } finally {
    await database.close();
  }
}

const tmpDirs: string[] = [];
function tmpDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-cli-'));
  tmpDirs.push(dir);
  return dir;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.destroy();
  for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('orgsec migrate', () => {
  itSqlite('on a fresh database prints every migration it ran, and a second run prints "Already up to date."', async () => {
    const fresh = await sharedDatabase();
    try {
      const first = await orgsec('migrate', '--database', fresh.url);
      expect(first.out).toEqual([`Ran ${migrations.length} migration(s):\n${migrations.map(([name]) => `  ${name}`).join('\n')}`]);
      expect(first.err).toEqual([]);
      if (dialect === 'sqlite') expect(fs.existsSync(fresh.url)).toBe(true);
      const second = await orgsec('migrate', '--database', fresh.url);
      expect(second.out).toEqual(['Already up to date.']);
      const unlocked = await orgsec('migrate', '--force-unlock', '--database', fresh.url);
      expect(unlocked.out).toEqual(['Freed the migration lock.', 'Already up to date.']);
    } finally {
      await fresh.drop();
    }
  });
});

describe('orgsec load', () => {
  itSqlite('loads the demo world, printing a summary line starting "Loaded", and loading it again succeeds without changes', async () => {
    const first = await orgsec('load', DEMO_PATH, '--database', db.url);
    expect(first.out).toEqual([expect.stringMatching(/^Loaded 7 users, 1 enterprises, 3 organizations, 4 teams, 6 repositories, .*11 tokens\.$/)]);
    const counted = await db.knex('accounts').count({ n: '*' }).first();
    expect(Number(counted?.n)).toBe(10);

    const before = await hashTables(db.knex);
    const second = await orgsec('load', DEMO_PATH, '--database', db.url);
    expect(second.out).toEqual([expect.stringMatching(/^Loaded /)]);
    expect(await hashTables(db.knex)).toEqual(before);
  });

  itSqlite('prints every token it generated, once', async () => {
    const file = path.join(tmpDir(), 'generated.json');
    fs.writeFileSync(file, JSON.stringify({
      users: [{ login: 'cli-generated' }],
      tokens: [{ type: 'classic', user: 'cli-generated', scopes: ['read:org'] }],
    }));
    const first = await orgsec('load', file, '--database', db.url);
    expect(first.out).toEqual([
      'Loaded 1 users, 1 tokens.',
      'Generated tokens (shown only now; store them safely):',
      expect.stringMatching(/^ {2}classic token for cli-generated: osp_[0-9A-Za-z]{36}$/),
    ]);
    const token = first.out[2]!.split(': ')[1]!;
    expect(await authenticate(db.url, token)).toMatchObject({ kind: 'user', login: 'cli-generated' });

    const second = await orgsec('load', file, '--database', db.url);
    expect(second.out).toEqual(['Loaded 1 users, 1 tokens.']);
  });

  itSqlite('of a file with a dangling reference rejects naming the entry, and leaves the database unchanged', async () => {
    const file = path.join(tmpDir(), 'dangling.json');
    await ensureDemoLoaded();
    fs.writeFileSync(file, JSON.stringify({
      users: [{ login: 'cli-dangling-newcomer' }],
      teams: [{ org: 'acme-corp', slug: 'cli-dangling', members: ['cli-no-such-user'] }],
    }));
    const before = await hashTables(db.knex);
    const error = await orgsecFailing('load', file, '--database', db.url);
    expect(error).toBeInstanceOf(WorldError);
    expect(error.message).toBe('teams[0] "acme-corp/cli-dangling": user "cli-no-such-user" does not exist');
    expect(await hashTables(db.knex)).toEqual(before);
  });

  itSqlite('of a file that is not JSON rejects naming the file', async () => {
    const file = path.join(tmpDir(), 'broken.json');
    fs.writeFileSync(file, '{ "users": [');
    const error = await orgsecFailing('load', file, '--database', db.url);
    expect(error.message).toContain(`${file} is not valid JSON`);
  });
});

describe('orgsec load of a file it streams', () => {
  /** Writes the world with its top-level keys in the given order. */
  function writeWorld(name: string, world: Record<string, unknown>, order: string[]): string {
    const file = path.join(tmpDir(), name);
    fs.writeFileSync(file, `{${order.map((key) => `${JSON.stringify(key)}: ${JSON.stringify(world[key])}`).join(',\n')}}`);
    return file;
  }

  /** The message loading the same world in-process gives (nothing is written either way). */
  async function inProcessMessage(world: unknown): Promise<string> {
    const error = await createServices(db).world.load(world).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(WorldError);
    return (error as Error).message;
  }

  itSqlite('loads a file whose alerts come before the advisories, repositories and users they name; loading it again changes nothing', async () => {
    const world = batchWorld('cli-order', 2 * ALERT_BATCH_SIZE + 100);
    const file = writeWorld('reversed.json', world, ['alerts', 'advisories', 'repositories', 'organizations', 'users']);
    const first = await orgsec('load', file, '--database', db.url);
    expect(first.out).toEqual([`Loaded 2 users, 1 organizations, 3 repositories, 1 advisories, ${world.alerts.length} alerts.`]);
    const stored = await db.knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').join('accounts as o', 'o.id', 'r.owner_id')
      .where('o.login', 'cli-order').count({ n: '*' }).first();
    expect(Number(stored?.n)).toBe(world.alerts.length);
    const before = await hashTables(db.knex);
    await orgsec('load', file, '--database', db.url);
    expect(await hashTables(db.knex)).toEqual(before);
  });

  itSqlite('of a file with a schema problem in a later batch of alerts rejects with the message of an in-process load, writing nothing', async () => {
    const world = batchWorld('cli-schema', ALERT_BATCH_SIZE + 20);
    const alerts: unknown[] = [...world.alerts];
    alerts[ALERT_BATCH_SIZE + 10] = { ...(alerts[ALERT_BATCH_SIZE + 10] as object), relationship: 'cousin' };
    const broken = { ...world, alerts };
    const file = writeWorld('late-schema.json', broken, ['users', 'alerts', 'organizations', 'repositories', 'advisories']);
    const before = await hashTables(db.knex);
    const error = await orgsecFailing('load', file, '--database', db.url);
    expect(error.message).toMatch(new RegExp(`^alerts\\[${ALERT_BATCH_SIZE + 10}\\]\\.relationship: `));
    expect(error.message).toBe(await inProcessMessage(broken));
    expect(await hashTables(db.knex)).toEqual(before);
  });

  itSqlite('of a file with a dangling reference in a later batch of alerts rejects naming the entry, writing nothing', async () => {
    const world = batchWorld('cli-dangling', ALERT_BATCH_SIZE + 20);
    const alerts = [...world.alerts];
    alerts[ALERT_BATCH_SIZE + 12] = { ...alerts[ALERT_BATCH_SIZE + 12]!, repository: 'cli-dangling/missing' };
    const file = writeWorld('late-dangling.json', { ...world, alerts }, ['alerts', 'users', 'organizations', 'repositories', 'advisories']);
    const before = await hashTables(db.knex);
    const error = await orgsecFailing('load', file, '--database', db.url);
    expect(error).toBeInstanceOf(WorldError);
    expect(error.message).toBe(`alerts[${ALERT_BATCH_SIZE + 12}] "cli-dangling/missing#${ALERT_BATCH_SIZE + 13}": repository "cli-dangling/missing" does not exist`);
    expect(await hashTables(db.knex)).toEqual(before);
  });

  itSqlite('of a file whose alerts are not an array, or that is not an object, rejects as an in-process load does', async () => {
    for (const [name, text, world] of [
      ['alerts-number.json', '{"users": [{"login": "cli-shape"}], "alerts": 5}', { users: [{ login: 'cli-shape' }], alerts: 5 }],
      ['array.json', '[{"login": "cli-shape"}]', [{ login: 'cli-shape' }]],
    ] as const) {
      const file = path.join(tmpDir(), name);
      fs.writeFileSync(file, text);
      const error = await orgsecFailing('load', file, '--database', db.url);
      expect(error.message).toBe(await inProcessMessage(world));
    }
  });

  itSqlite('of a file cut off inside its alerts rejects with the message JSON.parse gives', async () => {
    const file = path.join(tmpDir(), 'cut.json');
    const text = JSON.stringify(batchWorld('cli-cut', 50)).slice(0, -200);
    fs.writeFileSync(file, text);
    const error = await orgsecFailing('load', file, '--database', db.url);
    const expected = (() => {
      try {
        JSON.parse(text);
        return '';
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(error.message).toBe(`${file} is not valid JSON: ${expected}`);
  });
});

describe('orgsec token create', () => {
  beforeAll(ensureDemoLoaded);
  const tokenRows = async () => db.knex('tokens').select('*');

  itSqlite('with --user and --scopes prints one classic osp_ token that authenticates as that user', async () => {
    const run = await orgsec('token', 'create', '--user', 'alice', '--scopes', 'admin:org,repo', '--database', db.url);
    expect(run.out).toEqual([expect.stringMatching(/^osp_[0-9A-Za-z]{36}$/)]);
    const token = run.out[0]!;
    const principal = await authenticate(db.url, token);
    expect(principal).toMatchObject({ kind: 'user', tokenType: 'classic', login: 'alice', grant: { kind: 'scopes', declared: ['admin:org', 'repo'] } });
    expect(JSON.stringify(await tokenRows())).not.toContain(token);
  });

  itSqlite('with --type fine_grained prints an osf_ token limited to the owner, permissions and repositories given', async () => {
    const run = await orgsec(
      'token', 'create', '--type', 'fine_grained', '--user', 'alice', '--owner', 'acme-corp',
      '--permissions', 'members:read,dependency_alerts:write', '--repositories', 'api', '--database', db.url,
    );
    expect(run.out).toEqual([expect.stringMatching(/^osf_[0-9A-Za-z]{36}$/)]);
    const principal = await authenticate(db.url, run.out[0]!);
    const acme = await db.knex('accounts').where('login', 'acme-corp').first('id');
    const api = await db.knex('repositories').where({ owner_id: acme.id, name: 'api' }).first('id');
    expect(principal).toEqual({
      kind: 'user', tokenId: expect.any(Number), tokenType: 'fine_grained', userId: expect.any(Number), login: 'alice',
      grant: {
        kind: 'permissions',
        permissions: { members: 'read', dependency_alerts: 'write' },
        owner: { type: 'Account', id: Number(acme.id) },
        repositories: new Set([Number(api.id)]),
      },
    });
  });

  itSqlite('with --type installation prints an oss_ token acting as the app, with no user', async () => {
    const run = await orgsec('token', 'create', '--type', 'installation', '--app', 'bot', '--owner', 'acme-corp', '--permissions', 'members:read', '--database', db.url);
    expect(run.out).toEqual([expect.stringMatching(/^oss_[0-9A-Za-z]{36}$/)]);
    const principal = await authenticate(db.url, run.out[0]!);
    expect(principal).toMatchObject({
      kind: 'app', tokenType: 'installation', appName: 'bot', grant: { kind: 'permissions', permissions: { members: 'read' }, repositories: 'all' },
    });
    expect(principal).not.toHaveProperty('userId');
  });

  itSqlite('prints a new token each time, even for the same flags', async () => {
    const args = ['token', 'create', '--user', 'bob', '--scopes', 'read:org', '--database', db.url];
    const first = await orgsec(...args);
    const second = await orgsec(...args);
    expect(first.out[0]).not.toBe(second.out[0]);
    expect(await authenticate(db.url, first.out[0]!)).toMatchObject({ login: 'bob' });
    expect(await authenticate(db.url, second.out[0]!)).toMatchObject({ login: 'bob' });
  });

  itSqlite('with a bad scope rejects naming the scope field, and creates nothing', async () => {
    const before = await hashTables(db.knex);
    const error = await orgsecFailing('token', 'create', '--user', 'alice', '--scopes', 'admin:org,admin:everything', '--database', db.url);
    expect(error.message).toBe('--scopes: must be one of admin:org, write:org, read:org, admin:enterprise, repo, public_repo, security_events, admin:org_hook, admin:repo_hook, read:audit_log; got "admin:everything"');
    expect(await hashTables(db.knex)).toEqual(before);
  });

  itSqlite('with an unknown type names the type it got, in plain words', async () => {
    const error = await orgsecFailing('token', 'create', '--type', 'robot', '--user', 'alice', '--database', db.url);
    expect(error.message).toBe('--type: must be one of classic, oauth, fine_grained, app_user, installation; got "robot"');
  });

  itSqlite('with an unknown user rejects saying the user does not exist, and creates nothing', async () => {
    const before = await hashTables(db.knex);
    const error = await orgsecFailing('token', 'create', '--user', 'cli-nobody', '--scopes', 'read:org', '--database', db.url);
    expect(error.message).toBe('user "cli-nobody" does not exist');
    expect(await hashTables(db.knex)).toEqual(before);
  });

  itSqlite('with a malformed permission rejects saying it must be key:read or key:write', async () => {
    const error = await orgsecFailing('token', 'create', '--type', 'fine_grained', '--user', 'alice', '--owner', 'acme-corp', '--permissions', 'members', '--database', db.url);
    expect(error.message).toBe('permission "members" must be key:read or key:write');
  });

  itSqlite('with an unknown resource owner rejects naming it', async () => {
    const error = await orgsecFailing('token', 'create', '--type', 'fine_grained', '--user', 'alice', '--owner', 'cli-no-owner', '--permissions', 'members:read', '--database', db.url);
    expect(error.message).toBe('resource owner "cli-no-owner" is neither an account nor an enterprise');
  });

  const misfits: Array<[string[], string | RegExp]> = [
    [['--user', 'alice', '--scopes', 'repo', '--owner', 'acme-corp'], '--owner does not apply to a classic token'],
    [['--user', 'alice', '--scopes', 'repo', '--permissions', 'members:read'], '--permissions does not apply to a classic token'],
    [['--type', 'fine_grained', '--user', 'alice', '--owner', 'acme-corp', '--scopes', 'repo'], '--scopes does not apply to a fine_grained token'],
    [['--type', 'installation', '--app', 'bot', '--user', 'alice', '--owner', 'acme-corp'], 'an installation token has no --user'],
    [['--type', 'fine_grained', '--user', 'alice', '--permissions', 'members:read'], /^--owner: /],
  ];
  for (const [args, message] of misfits) {
    itSqlite(`with flags that do not fit the type (${args.join(' ')}), rejects saying why`, async () => {
      const error = await orgsecFailing('token', 'create', ...args, '--database', db.url);
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    });
  }
});
