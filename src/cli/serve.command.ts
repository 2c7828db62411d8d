import type { Command } from 'commander';
import type { Config } from '../config';
import { startServer } from '../main';
import { worldSchema } from '../modules/world/world.schema';
import { explainListenError } from './listen-errors';
import { printSummary, readWorldFile } from './load.command';
import type { Output } from './output';
import { importDemoAdvisories } from './advisories.command';
import { demoWorldPath } from './paths';
import { demoTokenLines, endpointLines } from './serve-banner';
import { checkedHelp, configFromOptions } from './setting-options';
import { addServeOptions } from './serve-options';

export function registerServe(program: Command, output: Output): void {
  const serve = program
    .command('serve')
    .description('serve the REST API and GraphQL (runs pending migrations first)');
  addServeOptions(serve)
    .addHelpText('after', `${checkedHelp()}

Examples:
  $ orgsec serve --demo                                   # what npm start runs
  $ orgsec serve --host 0.0.0.0 --port 8080 --trust-proxy
  $ DATABASE_URL=postgres://orgsec@db:5432/orgsec orgsec serve --database-pool-max 20
  $ orgsec serve --rate-limits off --log-level warn       # benchmarks, bulk loads`)
    .action(async (options: Record<string, unknown> & { demo?: boolean }) => {
      const config = configFromOptions(options);
      const demo = options.demo ? readWorldFile(demoWorldPath()) : undefined;
      let keptEarlierData = false;
      const running = await listenOrExplain(config, {
        beforeListen: async (services) => {
          if (demo === undefined) return;
          keptEarlierData = (await services.database.knex('accounts').first('id')) !== undefined;
          if (keptEarlierData) return;
          printSummary(output, await services.world.load(demo));
          await importDemoAdvisories(services, output);
        },
      });
      output.out(`orgsec is serving at ${running.url}`);
      for (const line of endpointLines(running.url, { isExplorerOn: config.graphqlExplorer })) output.out(line);
      if (demo !== undefined) {
        // Said, not silent: a user following the README expects the demo as it ships.
        if (keptEarlierData) output.out(keptDataLine(config.databaseUrl));
        const world = worldSchema.parse(demo);
        output.out('Demo tokens (send as "Authorization: Bearer TOKEN"):');
        for (const line of demoTokenLines(world)) output.out(line);
        const first = world.tokens.find((t) => t.token)?.token ?? 'TOKEN';
        output.out(`Try: curl -H "Authorization: Bearer ${first}" ${running.url}/orgs/acme-corp/organization-roles`);
      }
    });
}

/** Starts the server; a port taken or not allowed, or a bad host, becomes one line saying what to do. */
async function listenOrExplain(config: Config, hooks: Parameters<typeof startServer>[1]) {
  try {
    return await startServer(config, hooks);
  } catch (error) {
    const explained = explainListenError(error, config.host, config.port);
    throw explained === undefined ? error : new Error(explained);
  }
}

/** What a restart of the demo says: the database's earlier data stays, and how to start afresh. */
export function keptDataLine(databaseUrl: string): string {
  const afresh = databaseUrl.startsWith('postgres') ? 'use an empty database' : `delete ${databaseUrl}`;
  return `The demo world was not loaded: ${databaseUrl} already holds data (earlier runs' changes are kept). To start afresh, stop orgsec and ${afresh}.`;
}
