import type { RequestHandler } from 'express';
import { sendText } from './respond';

/**
 * A page whose assets are relative to its own directory (so it also works under a path
 * prefix): `/name` redirects to `/name/`, which serves the page.
 */
export function directoryPage(html: string): RequestHandler {
  return (req, res) => {
    const path = req.originalUrl.split('?')[0]!;
    if (!path.endsWith('/')) return res.redirect(301, `${path}/`);
    sendText(res, 200, 'text/html; charset=utf-8', html);
  };
}
