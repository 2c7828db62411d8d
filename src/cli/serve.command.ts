import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { startServer } from '../main';
import { DATABASE_FLAG, DATABASE_HELP, configWith } from './database-option';
import { printSummary, readWorldFile } from './load.command';
import type { Output } from './output';
import { demoWorldPath } from './paths';

function port(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be a port number (0-65535)');
  return n;
}

interface DemoToken { token?: string; type: string; user?: string; app?: string; resource_owner?: string }

export function registerServe(program: Command, output: Output): void {
  program
    .command('serve')
    .description('serve the REST API (runs pending migrations first)')
    .option('--port <n>', 'port (default: $PORT or 3000)', port)
    .option('--host <host>', 'interface to listen on (default: $HOST or 127.0.0.1)')
    .option(DATABASE_FLAG, DATABASE_HELP)
    .option('--demo', 'load the bundled demo world when the database is empty, and print its tokens')
    .action(async (options: { port?: number; host?: string; database?: string; demo?: boolean }) => {
      const config = configWith(options, { ...(options.port !== undefined ? { port: options.port } : {}), ...(options.host ? { host: options.host } : {}) });
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
