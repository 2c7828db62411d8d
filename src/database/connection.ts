import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { SQLITE_PRAGMAS, dialectOf, type Dialect } from './dialect';

export interface DatabaseOptions {
  /** PostgreSQL schema to work in (tests give each file its own). */
  schema?: string;
  poolMax?: number;
}

export interface Database {
  knex: Knex;
  dialect: Dialect;
  schema: string | undefined;
}

export function openDatabase(databaseUrl: string, options: DatabaseOptions = {}): Database {
  const dialect = dialectOf(databaseUrl);
  if (dialect === 'postgres') {
    const knex = knexFactory({
      client: 'pg',
      connection: databaseUrl,
      searchPath: options.schema ? [options.schema] : undefined,
      pool: { min: 0, max: options.poolMax ?? 10 },
    } as Knex.Config);
    return { knex, dialect, schema: options.schema };
  }
  if (databaseUrl !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(databaseUrl)), { recursive: true });
  const knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: databaseUrl },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: { pragma(p: string): unknown }, done: (err: Error | null, conn: unknown) => void) => {
        for (const pragma of SQLITE_PRAGMAS) conn.pragma(pragma);
        done(null, conn);
      },
    },
  });
  return { knex, dialect, schema: undefined };
}
