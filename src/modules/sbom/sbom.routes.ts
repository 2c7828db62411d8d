import { Router } from 'express';
import { principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendJson } from '../../http/respond';
import { parseInput, type InputContext } from '../../http/validate';
import { repoPath } from '../dependency-graph/dependency-graph.schemas';
import { snapshotWorkOf } from '../dependency-graph/dependency-graph.routes';
import { SBOM_RESOURCE } from './sbom-upload.service';
import { sbomUploadAnswer } from './sbom.serializers';
import { sbomUploadQuery } from './sbom.schemas';

const SBOM_INPUT: InputContext = { resource: SBOM_RESOURCE, invalidStatus: 422 };
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
