import { Command } from 'commander';
import { registerAdvisories } from './advisories.command';
import { registerAttestations } from './attestations.command';
import { registerAuditLog } from './audit-log.command';
import { registerBackup } from './backup.command';
import { registerExport } from './export.command';
import { registerLoad } from './load.command';
import { registerMigrate } from './migrate.command';
import { registerOidc } from './oidc.command';
import type { Output } from './output';
import { environmentHelp } from './setting-options';
import { registerSbom } from './sbom.command';
import { registerServe } from './serve.command';
import { registerToken } from './token.command';

export function buildProgram(output: Output): Command {
  const program = new Command('orgsec')
    .description('orgsec: organization and repository security administration (REST and GraphQL API)')
    .showHelpAfterError()
    .addHelpText('after', `${environmentHelp()}

Examples:
  $ orgsec serve --demo                      # serve with the demo world and print its tokens
  $ orgsec migrate --database postgres://orgsec@db:5432/orgsec
  $ orgsec load world.json --replace
  $ orgsec backup backups/orgsec.sqlite       # a consistent copy while it serves (SQLite)
  $ orgsec export orgsec.json                 # every row, restored by orgsec load orgsec.json --replace
  $ orgsec token create --user alice --scopes admin:org
  $ orgsec advisories import advisory-database/advisories/github-reviewed
  $ orgsec oidc rotate-key                   # a new OIDC signing key; the old one is kept a day
  $ orgsec sbom submit sbom.cdx.json --repo acme-corp/api   # a CycloneDX or SPDX document as its dependencies
  $ orgsec attestations verify --repo acme-corp/web --digest sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548 --signer-workflow cli/cli/.github/workflows/deployment.yml   # the demo's
  $ orgsec help serve                        # every flag of a command (also: orgsec serve --help)`)
    .configureOutput({ writeOut: (s) => output.out(s.trimEnd()), writeErr: (s) => output.err(s.trimEnd()) });
  registerServe(program, output);
  registerMigrate(program, output);
  registerLoad(program, output);
  registerBackup(program, output);
  registerExport(program, output);
  registerToken(program, output);
  registerAdvisories(program, output);
  registerOidc(program, output);
  registerAttestations(program, output);
  registerAuditLog(program, output);
  registerSbom(program, output);
  return program;
}
