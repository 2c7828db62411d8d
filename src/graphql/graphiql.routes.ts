import path from 'node:path';
import { Router } from 'express';
import { API_VERSION } from '../http/api-version';
import { directoryPage } from '../http/directory-page';
import { sendText } from '../http/respond';

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
  <style>
    body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
    #token-note { margin: 0; padding: 6px 12px; font-size: 14px; background: #fff8c5; border-bottom: 1px solid #d4a72c; }
    #token-note code { background: #fff; padding: 0 4px; border-radius: 3px; }
    #graphiql { flex: 1; min-height: 0; }
  </style>
  <link rel="stylesheet" href="./assets/graphiql.css">
</head>
<body>
  <p id="token-note" role="note">No token is sent: the schema, the Docs pane and public data work anonymously.
    To act as yourself, open the <strong>Headers</strong> tab below the query and add
    <code>"Authorization": "Bearer &lt;your token&gt;"</code> next to the preset headers.</p>
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
 * endpoint is the GraphQL path next to the page (/graphiql/ redirects keep the trailing slash);
 * the version header and Apollo's CSRF header are preset in the headers editor; subscriptions
 * connect to the same path over WebSocket, the headers editor's values their connection_init. No placeholder
 * token: one would be sent as it stands and refused, and the schema (Docs, completion) would
 * not load; the note above the editor says where the user's token goes.
 */
const INIT = `(function () {
  var endpoint = new URL('../graphql', window.location.href).toString();
  var presetHeaders = { 'X-Service-Api-Version': '${API_VERSION}', 'Apollo-Require-Preflight': 'true' };
  // Subscriptions go over WebSocket (graphql-ws) to the same path; GraphiQL sends the headers
  // tab (the Authorization typed there) as the connection_init payload.
  var subscriptionUrl = endpoint.replace(/^http/, 'ws');
  var fetcher = GraphiQL.createFetcher({ url: endpoint, subscriptionUrl: subscriptionUrl, headers: presetHeaders });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultHeaders: JSON.stringify(presetHeaders, null, 2),
      defaultEditorToolbarOpen: true,
      shouldPersistHeaders: false, // a token typed here is not kept in the browser's storage
    }),
  );
})();
`;

/** GraphiQL next to each GraphQL path (/graphql → /graphiql/, /api/graphql → /api/graphiql/). */
export function graphiqlRoutes(graphqlPaths: readonly string[]): Router {
  const explorer = Router();
  explorer.get('/', directoryPage(PAGE));
  explorer.get('/init.js', (_req, res) => {
    sendText(res, 200, 'application/javascript; charset=utf-8', INIT);
  });
  explorer.get('/assets/:name', (req, res, next) => {
    const file = ASSETS[req.params.name];
    if (!file) return next();
    res.sendFile(file, { maxAge: '1d', headers: { 'Content-Type': req.params.name.endsWith('.css') ? 'text/css; charset=utf-8' : 'application/javascript; charset=utf-8' } });
  });
  const router = Router();
  router.use(graphqlPaths.map((graphql) => graphql.replace(/graphql$/, 'graphiql')), explorer);
  return router;
}
