import { Router, type Response } from 'express';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { linkedRoute, route } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import { ATTESTATION_INPUT, bundlePath, createBody, listQuery, repoPath, subjectPath } from './attestations.schemas';
import { serializeAttestation } from './attestations.serializers';

/** This request's service (bound to its data versions for reads). */
const attestationsOf = (res: Response) => servicesOf(res).attestations;

/** Spec §4.3, #21–#22, and the bundle_url of #22's items. */
export function attestationsRoutes(): Router {
  const router = Router();

  route(router, 'createAttestation', async (req, res) => {
    const p = parseInput(repoPath, req.params, ATTESTATION_INPUT);
    const body = parseInput(createBody, jsonBody(req), ATTESTATION_INPUT);
    sendJson(res, 201, await attestationsOf(res).create(principalOf(res), p.owner, p.repo, body.bundle));
  });

  linkedRoute(router, 'listAttestations', 'bundle', async (req, res) => {
    const p = parseInput(bundlePath, req.params, ATTESTATION_INPUT);
    sendJson(res, 200, (await attestationsOf(res).get(principalOf(res), p.owner, p.repo, p.attestation_id)).bundle);
  });

  route(router, 'listAttestations', async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(subjectPath, req.params, ATTESTATION_INPUT);
    const q = parseInput(listQuery, req.query, ATTESTATION_INPUT);
    const { repo, page } = await attestationsOf(res).list(principalOf(res), p.owner, p.repo, {
      subjectDigest: p.subject_digest, predicateType: q.predicate_type, perPage: q.per_page, after: q.after, before: q.before,
    });
    setCursorLinks(req, res, page);
    sendJson(res, 200, { attestations: page.items.map((a) => serializeAttestation(apiBaseOf(res), repo, a)) });
  });

  return router;
}
