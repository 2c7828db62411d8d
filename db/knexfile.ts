// For the knex CLI (e.g. `npx knex --knexfile dist/db/knexfile.js migrate:status`).
// The service itself migrates through `orgsec migrate` / `orgsec serve`.
import { migrationSource } from './migrations';

const url = process.env.DATABASE_URL ?? 'data/orgsec.sqlite';
const isPostgres = /^postgres(ql)?:\/\//.test(url);

export default isPostgres
  ? { client: 'pg', connection: url, migrations: { migrationSource } }
  : { client: 'better-sqlite3', connection: { filename: url }, useNullAsDefault: true, migrations: { migrationSource } };
