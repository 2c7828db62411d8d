import { Router, type Response } from 'express';
import { jsonBody } from '../../http/body';
import { principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import { repoPath } from '../oidc/oidc.schemas';
import { TOKEN_INPUT, tokenRequestBody } from './oidc-tokens.schemas';

const tokensOf = (res: Response) => servicesOf(res).oidcTokens;

/** Interfaces.md Part 2 "OIDC tokens": the mint and the preview. */
export function oidcTokensRoutes(): Router {
  const router = Router();

  route(router, 'mintOidcToken', async (req, res) => {
    const p = parseInput(repoPath, req.params, TOKEN_INPUT);
    const body = parseInput(tokenRequestBody, jsonBody(req), TOKEN_INPUT);
    const minted = await tokensOf(res).mint(principalOf(res), p.owner, p.repo, body);
    sendJson(res, 201, { value: minted.value, claims: minted.claims });
  });

  route(router, 'previewOidcToken', async (req, res) => {
    const p = parseInput(repoPath, req.params, TOKEN_INPUT);
    const body = parseInput(tokenRequestBody, jsonBody(req), TOKEN_INPUT);
    const preview = await tokensOf(res).preview(principalOf(res), p.owner, p.repo, body);
    sendJson(res, 200, { sub: preview.sub, claims: preview.claims });
  });

  return router;
}
