import type { Command } from 'commander';
import { createServices } from '../composition';
import { commandActor } from '../modules/audit-log/audit-actors';
import { withMigratedDatabase } from './database-option';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';
import type { Output } from './output';

export function registerOidc(program: Command, output: Output): void {
  const oidc = program.command('oidc').description('manage the OIDC issuer');
  oidc
    .command('rotate-key')
    .description('make a new OIDC signing key; the key it replaces stays in the JWKS for a day, so tokens it signed still verify')
    .addOption(settingOption('DATABASE_URL'))
    .addHelpText('after', `
Every instance over the database signs with the new key from its next request on. The new
key's id (kid) is printed; no private key is ever printed or logged.
${environmentHelp(['DATABASE_URL'])}

Examples:
  $ orgsec oidc rotate-key
  $ orgsec oidc rotate-key --database postgres://orgsec@db:5432/orgsec`)
    .action(async (options: { database?: string }) => {
      const config = configFromOptions(options);
      await withMigratedDatabase(config, async (db) => {
        const { kid, replaced } = await createServices(db).oidcSigningKeys.rotate(commandActor());
        output.out(replaced === undefined
          ? `Created the signing key ${kid} (there was none).`
          : `Rotated the signing key: ${kid} signs from now on; ${replaced} stays in the JWKS for a day.`);
      });
    });
}
