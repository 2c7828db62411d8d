import type { SbomUploadReceipt } from './sbom-upload.service';

/** The answer lists at most this many skipped components. */
const MAX_SKIPPED_LISTED = 100;

/** The answer of an upload (REST, and GraphQL's payload from it). */
export function sbomUploadAnswer(receipt: SbomUploadReceipt) {
  const { summary } = receipt;
  return {
    id: receipt.id, created_at: receipt.createdAt, result: receipt.result, message: receipt.message, format: receipt.format, manifest: receipt.manifest,
    components: { total: summary.total, recorded: summary.recorded, skipped: summary.skipped.length, unmatchable: summary.unmatchable },
    skipped: summary.skipped.slice(0, MAX_SKIPPED_LISTED),
  };
}

