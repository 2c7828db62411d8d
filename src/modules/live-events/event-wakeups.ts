import pg from 'pg';
import type { Knex } from 'knex';
import { PG_CONNECT_TIMEOUT_MS } from '../../database/connection';
import { isPostgres } from '../../database/dialect';
import type { Logger } from '../../logger';
import type { FeedWakeups } from './event-feed';

// PostgreSQL tells every instance when events commit: each transaction that writes events sends
// a NOTIFY (delivered at commit, never for a rollback), and each instance with live subscribers
// LISTENs on a connection of its own. The channel is named after the schema, so instances of
// different schemas in one database do not wake each other. A notification only wakes the
// feed, which reads the table: one missed (a dropped connection) costs a poll interval, no event.

/** The channel of the schema the statement runs in (63 bytes at most, as PostgreSQL requires). */
const CHANNEL_SQL = `'orgsec_events_' || left(md5(current_schema()), 16)`;

/**
 * Inside a transaction that writes events, before their ids are taken: takes the data_versions
 * row lock (which every data write takes anyway, through its trigger: the same lock, so no new
 * order of locks) and queues the NOTIFY. The lock is what makes id order commit order (event-feed.ts).
 */
export async function announceEvents(trx: Knex.Transaction): Promise<void> {
  if (!isPostgres(trx)) return; // SQLite has one writer at a time: ids are taken in commit order
  await trx.raw(`select pg_notify(${CHANNEL_SQL}, '') from data_versions where id = 1 for update`);
}

const RECONNECT_MS = 1_000;

/** LISTEN on a connection of its own while the feed runs; reconnects (and wakes the feed) after a loss. */
export class PostgresEventWakeups implements FeedWakeups {
  private client: pg.Client | undefined;
  private wake: (() => void) | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly connection: { url: string; schema: string | undefined }, private readonly logger?: Logger) {}

  start(wake: () => void): void {
    this.wake = wake;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.wake = undefined;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.wake === undefined) return;
    const client = new pg.Client({
      connectionString: this.connection.url, application_name: 'orgsec live events', connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
      ...(this.connection.schema === undefined ? {} : { options: `-c search_path=${this.connection.schema}` }),
    });
    this.client = client;
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.wake === undefined) return;
      this.logger?.warn({ err: error }, 'live events: the LISTEN connection was lost; connecting again');
      this.retry = setTimeout(() => void this.connect(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => this.wake?.());
    try {
      await client.connect();
      const { rows } = await client.query<{ channel: string }>(`select ${CHANNEL_SQL} as channel`);
      await client.query(`LISTEN ${client.escapeIdentifier(rows[0]!.channel)}`);
      // Events may have committed while no one listened.
      this.wake?.();
    } catch (error) {
      lost(error as Error);
    }
  }
}

/** The wakeups of a database: LISTEN on PostgreSQL (unless turned off), none on SQLite (the feed polls). */
export function eventWakeupsOf(database: { postgresUrl: string | undefined; schema: string | undefined }, listen: boolean, logger?: Logger): FeedWakeups | undefined {
  return database.postgresUrl !== undefined && listen ? new PostgresEventWakeups({ url: database.postgresUrl, schema: database.schema }, logger) : undefined;
}
