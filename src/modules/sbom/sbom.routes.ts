import { Router } from 'express';
import { principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendJson } from '../../http/respond';
import { parseInput, type InputContext } from '../../http/validate';
import { repoPath } from '../dependency-graph/dependency-graph.schemas';
import { snapshotWorkOf } from '../dependency-graph/dependency-graph.routes';
import { SBOM_RESOURCE, type SbomUploadReceipt } from './sbom-upload.service';
import { sbomUploadQuery } from './sbom.schemas';

const SBOM_INPUT: InputContext = { resource: SBOM_RESOURCE, invalidStatus: 422 };
/** The answer lists at most this many skipped components. */
const MAX_SKIPPED_LISTED = 100;

/** The answer of an upload (REST and the CLI's --json alike). */
export function sbomUploadAnswer(receipt: SbomUploadReceipt) {
  const { summary } = receipt;
  return {
    id: receipt.id, created_at: receipt.createdAt, result: receipt.result, message: receipt.message, format: receipt.format, manifest: receipt.manifest,
    components: { total: summary.total, recorded: summary.recorded, skipped: summary.skipped.length, unmatchable: summary.unmatchable },
    skipped: summary.skipped.slice(0, MAX_SKIPPED_LISTED),
  };
}

/** Issue 39: SBOMs in. */
export function sbomRoutes(): Router {
  const router = Router();

  route(router, 'uploadSbom', async (req, res) => {
    const p = parseInput(repoPath, req.params, SBOM_INPUT);
    const query = parseInput(sbomUploadQuery, req.query, SBOM_INPUT);
    const text = typeof req.body === 'string' ? req.body : '';
    const receipt = await servicesOf(res).sbomUploads.upload(principalOf(res), p.owner, p.repo, text, query, snapshotWorkOf(res));
    sendJson(res, 201, sbomUploadAnswer(receipt));
  });

  return router;
}
