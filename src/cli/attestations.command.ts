import type { Command } from 'commander';
import { createServices } from '../composition';
import type { AuditedAttestation } from '../modules/attestations/attestation-audit';
import { untrustedBecause } from '../modules/attestations/attestation-trust';
import { signerPolicyOf } from '../modules/attestations/signer-policy';
import { withMigratedDatabase } from './database-option';
import type { Output } from './output';
import { configFromOptions, environmentHelp, settingOption } from './setting-options';

interface VerifyOptions {
  repo: string;
  digest: string;
  predicateType?: string;
  signerWorkflow?: string;
  certIdentity?: string;
  certIdentityRegex?: string;
  certOidcIssuer?: string;
}

const REPO = /^([^/\s]+)\/([^/\s]+)$/;
const DIGEST = /^sha256:[0-9a-fA-F]{64}$/;

/** One line per attestation: its id, whether it is accepted, and why or who signed. */
function lineOf(a: AuditedAttestation): string {
  const head = `attestation ${a.id} (${a.predicateType}):`;
  if (!a.verdict.verified) return `${head} not verified: ${untrustedBecause(a.verdict)}`;
  const signer = a.verdict.signer;
  const who = `${signer?.subjectAlternativeName ?? 'no identity'} (issuer ${signer?.certificateIssuer ?? 'none'})`;
  return a.policyProblem === undefined ? `${head} verified, signed by ${who}` : `${head} verified, but not by the signer asked for: ${a.policyProblem}`;
}

export function registerAttestations(program: Command, output: Output): void {
  const attestations = program.command('attestations').description('stored attestations: verify them against the trusted roots and a signer policy');
  attestations
    .command('verify')
    .description('verify the stored attestations of a digest fully (certificate chain, log entry, timestamps, signature) and against a signer policy')
    .requiredOption('--repo <owner/repo>', 'the repository the attestations are stored against')
    .requiredOption('--digest <sha256:hex>', 'the subject digest, sha256: and 64 hexadecimal digits')
    .option('--predicate-type <type>', 'only this predicate type: a URI, or provenance, sbom or release')
    .option('--signer-workflow <owner/repo/path>', 'the signer must be a run of this workflow: https://<host>/OWNER/REPO/PATH@<any ref>')
    .option('--cert-identity <san>', 'the signer\'s identity (certificate SAN), matched exactly')
    .option('--cert-identity-regex <regex>', 'a regular expression the identity must match from its start (an implicit ^)')
    .option('--cert-oidc-issuer <url>', 'the OIDC issuer the certificate must name, e.g. https://token.actions.githubusercontent.com')
    .addOption(settingOption('DATABASE_URL'))
    .addOption(settingOption('ATTESTATION_TRUSTED_ROOTS'))
    .addHelpText('after', `
Prints one line per attestation; exits 0 when at least one verifies and meets the policy, 1
otherwise. Without an identity option any verified signer is accepted.
${environmentHelp(['DATABASE_URL', 'ATTESTATION_TRUSTED_ROOTS'])}

Examples:
  $ orgsec attestations verify --repo acme-corp/api --digest sha256:215a5aa93f2295892193fa28ce827baa83ec8b419ea80167e2a6d9ad8b3004f0 \\
      --signer-workflow acme-corp/api/.github/workflows/release.yml --cert-oidc-issuer https://token.actions.githubusercontent.com   # an artifact of yours
  $ orgsec attestations verify --repo acme-corp/web --digest sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548 \\
      --cert-identity-regex 'https://github\\.com/cli/'   # the demo world's: a real public-good bundle`)
    .action(async (options: VerifyOptions & { database?: string; attestationTrustedRoots?: string }) => {
      const config = configFromOptions(options);
      const repo = REPO.exec(options.repo);
      if (!repo) throw new Error('--repo: must be OWNER/REPO');
      if (!DIGEST.test(options.digest)) throw new Error('--digest: must be "sha256:" followed by 64 hexadecimal digits');
      const policy = signerPolicyOf(options);
      const digest = options.digest.toLowerCase();
      const audited = await withMigratedDatabase(config, (db) =>
        createServices(db, { attestationTrust: config.attestationTrust }).attestationAudit.verify({
          owner: repo[1]!, repo: repo[2]!, digest, predicateType: options.predicateType, policy,
        }),
      );
      for (const a of audited) output.out(lineOf(a));
      if (audited.length === 0) throw new Error(`no attestation of ${digest} is stored against ${options.repo}`);
      const accepted = audited.filter((a) => a.isAccepted).length;
      if (accepted === 0) throw new Error(`none of the ${audited.length} attestation(s) verified${policy.identity.kind === 'any' && policy.oidcIssuer === undefined ? '' : ' with the signer asked for'}`);
    });
}
