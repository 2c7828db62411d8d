import path from 'node:path';
import { Router } from 'express';
import { API_VERSION } from '../http/api-version';
import { directoryPage } from '../http/directory-page';

// An explorer that works offline: GraphiQL's browser build with React from their packages,
// served by orgsec itself (Apollo Sandbox, the landing page at /graphql, loads from a CDN).

/** A file inside an installed package (their exports maps do not list the browser builds). */
const packageFile = (pkg: string, file: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);

const ASSETS: Record<string, string> = {
  'react.js': packageFile('react', 'umd/react.production.min.js'),
  'react-dom.js': packageFile('react-dom', 'umd/react-dom.production.min.js'),
  'graphiql.js': packageFile('graphiql', 'graphiql.min.js'),
  'graphiql.css': packageFile('graphiql', 'graphiql.min.css'),
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>orgsec GraphiQL</title>
  <style>body { margin: 0; height: 100vh; } #graphiql { height: 100vh; }</style>
  <link rel="stylesheet" href="./assets/graphiql.css">
</head>
<body>
  <div id="graphiql">Loading GraphiQL…</div>
  <script src="./assets/react.js"></script>
  <script src="./assets/react-dom.js"></script>
  <script src="./assets/graphiql.js"></script>
  <script src="./init.js"></script>
</body>
</html>
`;

/**
 * A script file rather than inline (works under a strict Content-Security-Policy). The
 * endpoint is /graphql, next to the page (/graphiql/ redirects keep the trailing slash); the
 * version header and Apollo's CSRF header are preset in the headers editor, where the
 * user adds `Authorization: Bearer <token>`.
 */
const INIT = `(function () {
  var endpoint = new URL('../graphql', window.location.href).toString();
  var presetHeaders = { 'X-Service-Api-Version': '${API_VERSION}', 'Apollo-Require-Preflight': 'true' };
  var fetcher = GraphiQL.createFetcher({ url: endpoint, headers: presetHeaders });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultHeaders: JSON.stringify(Object.assign({ Authorization: 'Bearer <token>' }, presetHeaders), null, 2),
      defaultEditorToolbarOpen: true,
      shouldPersistHeaders: false, // a token typed here is not kept in the browser's storage
    }),
  );
})();
`;

export function graphiqlRoutes(): Router {
  const router = Router();
  router.get('/graphiql', directoryPage(PAGE));
  router.get('/graphiql/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.get('/graphiql/assets/:name', (req, res, next) => {
    const file = ASSETS[req.params.name];
    if (!file) return next();
    res.sendFile(file, { maxAge: '1d', headers: { 'Content-Type': req.params.name.endsWith('.css') ? 'text/css; charset=utf-8' : 'application/javascript; charset=utf-8' } });
  });
  return router;
}
