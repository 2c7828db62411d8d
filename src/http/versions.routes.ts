import { Router } from 'express';
import { SUPPORTED_API_VERSIONS } from './api-version';
import { sendJson } from './respond';

/** `GET /versions`: the API versions this server answers, as clients discover them (no token needed). */
export function versionsRoutes(): Router {
  const router = Router();
  router.get('/versions', (_req, res) => {
    sendJson(res, 200, [...SUPPORTED_API_VERSIONS]);
  });
  return router;
}
