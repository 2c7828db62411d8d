import type { Command } from 'commander';
import { CLASSIC_SCOPES, PERMISSION_KEYS } from '../auth/grants';
import { INPUT_PARSE_OPTIONS, problemOf } from '../shared/input-messages';
import { createServices } from '../composition';
import { commandActor } from '../modules/audit-log/audit-actors';
import { tokenDeclarationSchema } from '../modules/world/world.schema';
import { withMigratedDatabase } from './database-option';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';
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
    .option('--type <type>', 'token type: classic, oauth, fine_grained, app_user or installation', 'classic')
    .option('--user <login>', 'the user the token acts as (all types but installation)')
    .option('--app <name>', 'the app (installation, app_user)')
    .option('--scopes <list>', `classic/oauth scopes, comma-separated: ${CLASSIC_SCOPES.join(', ')}`)
    .option('--owner <name>', 'resource owner: organization login or enterprise slug (all types but classic/oauth)')
    .option('--permissions <list>', `permissions (all types but classic/oauth), comma-separated key:read or key:write; keys: ${PERMISSION_KEYS.join(', ')}`)
    .option('--repositories <list>', '"all" or repository names, comma-separated', 'all')
    .option('--expires-at <time>', 'expiry, ISO 8601 UTC, e.g. 2027-01-01T00:00:00Z (default: never)')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

Examples:
  $ orgsec token create --user alice --scopes admin:org,security_events
  $ orgsec token create --type fine_grained --user bob --owner acme-corp \\
      --permissions members:read,dependency_alerts:write --repositories api,web
  $ orgsec token create --type installation --app audit-bot --owner acme-corp --permissions dependency_alerts:read
  $ orgsec token create --type app_user --app audit-bot --user bob --owner acme-corp --permissions members:read`)
    .action(async (options: TokenOptions) => {
      const config = configFromOptions(options);
      // The plain wording of every other input; a --token value is never repeated back.
      const parsed = tokenDeclarationSchema.safeParse(declarationFromFlags(options), INPUT_PARSE_OPTIONS);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? 'type');
        throw new Error(`${FLAG_OF[field] ?? field}: ${problemOf(issue)}`);
      }
      await withMigratedDatabase(config, async (db) => {
        const issued = await createServices(db).tokens.create(parsed.data, commandActor());
        output.out(issued.token!);
      });
    });
  token
    .command('revoke')
    .description('revoke a token: every request with it is refused from now on, on every instance')
    .argument('<token>', 'the token itself, or its id (the audit log\'s token_id and created_token_id)')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `${environmentHelp(['DATABASE_URL'])}

Examples:
  $ orgsec token revoke osp_AbC…          # a leaked token, by its value
  $ orgsec token revoke 42                # by id`)
    .action(async (value: string, options: { database?: string }) => {
      const config = configFromOptions(options);
      await withMigratedDatabase(config, async (db) => {
        const which = /^[1-9][0-9]{0,9}$/.test(value) ? { id: Number(value) } : { token: value };
        const { id, revoked } = await createServices(db).tokens.revoke(which, commandActor());
        output.out(revoked ? `Revoked token ${id}.` : `Token ${id} was revoked already.`);
      });
    });
}
