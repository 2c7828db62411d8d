import type { Command } from 'commander';
import { SETTING_NAMES } from '../config';
import { startServer } from '../main';
import { printSummary, readWorldFile } from './load.command';
import type { Output } from './output';
import { demoWorldPath } from './paths';
import { addSettingOptions, checkedHelp, configFromOptions } from './setting-options';

interface DemoToken { token?: string; type: string; user?: string; app?: string; resource_owner?: string }

export function registerServe(program: Command, output: Output): void {
  const serve = program
    .command('serve')
    .description('serve the REST API and GraphQL (runs pending migrations first)');
  // Every setting has a flag here: they all matter to a running server.
  addSettingOptions(serve, SETTING_NAMES)
    .option('--demo', 'load the bundled demo world when the database is empty, and print its tokens')
    .addHelpText('after', `${checkedHelp()}

Examples:
  $ orgsec serve --demo                                   # what npm start runs
  $ orgsec serve --host 0.0.0.0 --port 8080 --trust-proxy
  $ DATABASE_URL=postgres://orgsec@db:5432/orgsec orgsec serve --database-pool-max 20
  $ orgsec serve --rate-limits off --log-level warn       # benchmarks, bulk loads`)
    .action(async (options: Record<string, unknown> & { demo?: boolean }) => {
      const config = configFromOptions(options);
      const demo = options.demo ? (readWorldFile(demoWorldPath()) as { tokens?: DemoToken[] }) : undefined;
      const running = await startServer(config, {
        beforeListen: async (services) => {
          if (!demo) return;
          const empty = (await services.database.knex('accounts').first('id')) === undefined;
          if (empty) printSummary(output, await services.world.load(demo));
        },
      });
      output.out(`orgsec is serving at ${running.url}`);
      output.out(`  REST API:     ${running.url}/orgs/{org}/organization-roles`);
      output.out(`  Health check: ${running.url}/healthz`);
      if (demo) {
        output.out('Demo tokens:');
        for (const t of demo.tokens ?? []) {
          if (!t.token) continue;
          const who = t.type === 'installation' ? `app ${t.app}` : t.user;
          output.out(`  ${t.token.padEnd(34)} ${t.type} for ${who}${t.resource_owner ? ` on ${t.resource_owner}` : ''}`);
        }
        output.out(`Try: curl -H "Authorization: Bearer ${demo.tokens?.find((t) => t.token)?.token ?? 'TOKEN'}" ${running.url}/orgs/acme-corp/organization-roles`);
      }
    });
}
