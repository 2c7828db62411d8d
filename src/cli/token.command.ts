import type { Command } from 'commander';
import { createServices } from '../composition';
import { tokenDeclarationSchema } from '../modules/world/world.schema';
import { DATABASE_FLAG, DATABASE_HELP, configWith, withMigratedDatabase } from './database-option';
import type { Output } from './output';

interface TokenOptions {
  type: string;
  user?: string;
  app?: string;
  scopes?: string;
  owner?: string;
  permissions?: string;
  repositories?: string;
  expiresAt?: string;
  database?: string;
}

const FLAG_OF: Record<string, string> = {
  type: '--type', user: '--user', app: '--app', scopes: '--scopes', resource_owner: '--owner',
  permissions: '--permissions', repositories: '--repositories', expires_at: '--expires-at',
};

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** A flag that does not apply to the token type is an error, never silently ignored. */
function assertOnlyFlagsFor(o: TokenOptions): void {
  const usesScopes = o.type === 'classic' || o.type === 'oauth';
  const misplaced = usesScopes
    ? (['owner', 'permissions', 'app'] as const).filter((f) => o[f] !== undefined)
    : (['scopes'] as const).filter((f) => o[f] !== undefined);
  if (o.type === 'installation' && o.user !== undefined) throw new Error('an installation token has no --user');
  if (usesScopes && o.repositories !== 'all') throw new Error(`--repositories does not apply to a ${o.type} token`);
  if (misplaced.length > 0) throw new Error(`${misplaced.map((f) => `--${f}`).join(', ')} does not apply to a ${o.type} token`);
}

/** Turns the flags into the same token declaration a world file uses. */
export function declarationFromFlags(o: TokenOptions): unknown {
  assertOnlyFlagsFor(o);
  const permissions = Object.fromEntries(
    list(o.permissions).map((pair) => {
      const [key, level] = pair.split(':');
      if (!key || !level) throw new Error(`permission "${pair}" must be key:read or key:write`);
      return [key, level];
    }),
  );
  const repositories = o.repositories === undefined || o.repositories === 'all' ? 'all' : list(o.repositories);
  const common = { type: o.type, ...(o.expiresAt ? { expires_at: o.expiresAt } : {}) };
  if (o.type === 'classic' || o.type === 'oauth') return { ...common, user: o.user, scopes: list(o.scopes) };
  if (o.type === 'installation') return { ...common, app: o.app, resource_owner: o.owner, repositories, permissions };
  return { ...common, user: o.user, ...(o.app ? { app: o.app } : {}), resource_owner: o.owner, repositories, permissions };
}

export function registerToken(program: Command, output: Output): void {
  const token = program.command('token').description('manage access tokens');
  token
    .command('create')
    .description('create a token and print it (the only time its value is shown)')
    .option('--type <type>', 'classic | oauth | fine_grained | app_user | installation', 'classic')
    .option('--user <login>', 'the user the token acts as (all types but installation)')
    .option('--app <name>', 'the app (installation, app_user)')
    .option('--scopes <list>', 'classic/oauth scopes, comma-separated, e.g. admin:org,security_events')
    .option('--owner <name>', 'resource owner: organization login or enterprise slug (fine-grained kinds)')
    .option('--permissions <list>', 'fine-grained permissions, e.g. members:read,dependency_alerts:write')
    .option('--repositories <list>', '"all" or repository names, comma-separated', 'all')
    .option('--expires-at <time>', 'ISO 8601 expiry')
    .option(DATABASE_FLAG, DATABASE_HELP)
    .action(async (options: TokenOptions) => {
      const parsed = tokenDeclarationSchema.safeParse(declarationFromFlags(options));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? 'type');
        throw new Error(`${FLAG_OF[field] ?? field}: ${issue.message}`);
      }
      await withMigratedDatabase(configWith(options), async (db) => {
        const issued = await createServices(db).tokens.create(parsed.data);
        output.out(issued.token!);
      });
    });
}
