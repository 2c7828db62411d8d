import type { Knex } from 'knex';

// Attestation trust (interfaces.md Part 2): each attestation keeps its verdict, computed when it
// was stored, against the trusted roots then in force.
// - verified: null on rows stored before this migration. Their verdict is computed when read
//   (src/modules/attestations/attestation-verdicts.ts), as it is for any row whose
//   verification_roots differ from the roots in force: a migration never imports src/ and the
//   verdict depends on configuration (ATTESTATION_TRUSTED_ROOTS), not on data alone.
// - verification_reason: the failed check and why; null when verified.
// - verification_signer: JSON of the verified signer's identity; null when not verified.
// - verification_roots: the fingerprint (sha256 hex) of the roots and rules the verdict used.
// Columns are added, never rebuilt: the table keeps its data_versions triggers, so writing
// them moves data_versions.data as every write to attestations does.

const COLUMNS = ['verified', 'verification_reason', 'verification_signer', 'verification_roots'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('attestations', (t) => {
    t.boolean('verified').nullable();
    t.text('verification_reason').nullable();
    t.text('verification_signer').nullable();
    t.string('verification_roots', 64).nullable();
  });
}

// Plain DROP COLUMN on both dialects (SQLite ≥ 3.35), for the reason above.
export async function down(knex: Knex): Promise<void> {
  for (const column of COLUMNS) await knex.raw(`ALTER TABLE attestations DROP COLUMN ${column}`);
}
