import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { directoryPage } from '../http/directory-page';
import { buildOpenApiDocument } from './document';
import { sendText } from '../http/respond';

// swagger-ui-dist ships no types; only its asset directory is used. Its main module also
// loads the whole browser bundle into the server (about 40 MB of memory), so only the
// module that names the directory is required.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const getAbsoluteFSPath = require('swagger-ui-dist/absolute-path.js') as () => string;

// GET /openapi.json and the offline API docs at /docs (Swagger UI from swagger-ui-dist,
// served from the package: no CDN). No token needed; outside the API's rate limit.

const DOCS_INDEX = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>orgsec REST API</title>
  <link rel="stylesheet" href="./swagger-ui.css">
  <link rel="icon" type="image/png" href="./favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="./swagger-ui-bundle.js"></script>
  <script src="./swagger-ui-standalone-preset.js"></script>
  <script src="./docs-initializer.js"></script>
</body>
</html>
`;

// A script file, not inline: works under a Content-Security-Policy without 'unsafe-inline'.
// The description's URL is relative to /docs/, so it also works under a path prefix.
// Swagger UI decodes the whole fragment before splitting it at '/', so an operationId with a
// '/' in it (all of Octokit's: `orgs/list-org-roles`) never opens from a link, even one Swagger UI
// wrote itself (`#/organization-roles/orgs%2Flist-org-roles`). A plugin, through Swagger UI's plugin
// API, splits such a fragment first and opens the operation it names; and a fragment
// changed on an open page (another documentation_url followed) is opened too. Swagger UI scrolls
// to an operation only when its block mounts, so one already on the page is scrolled to again
// with the element Swagger UI handed to readyToScroll when it mounted.
const DOCS_INITIALIZER = `function encodedSlashDeepLinks(system) {
  var mounted = {};
  var keyOf = function (key) { return JSON.stringify(key && key.toJS ? key.toJS() : key); };
  return {
    statePlugins: {
      layout: {
        wrapActions: {
          readyToScroll: function (original) {
            return function (key, element) {
              if (element) mounted[keyOf(key)] = element;
              return original(key, element);
            };
          },
          parseDeepLinkHash: function (original) {
            return function (hash) {
              var raw = window.location.hash.replace(/^#!?\\/?/, '');
              if (!system.getConfigs().deepLinking || !/%2F/i.test(raw)) return original(hash);
              var key = system.layoutSelectors.isShownKeyFromUrlHashArray(raw.split('/').map(decodeURIComponent));
              if (key[0] === 'operations') system.layoutActions.show(['operations-tag', key[1]], true);
              system.layoutActions.show(key, true);
              system.layoutActions.scrollTo(key);
              if (system.layoutActions.scrollToVirtualizedOperation) system.layoutActions.scrollToVirtualizedOperation(key);
              var element = mounted[keyOf(key)];
              if (element && element.isConnected) system.layoutActions.readyToScroll(key, element);
            };
          },
        },
      },
    },
  };
}
window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: new URL('../openapi.json', window.location.href).toString(),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [encodedSlashDeepLinks],
    layout: 'StandaloneLayout',
  });
  window.addEventListener('hashchange', function () {
    window.ui.layoutActions.parseDeepLinkHash(decodeURIComponent(window.location.hash));
  });
};
`;

export function openApiRoutes(): Router {
  const router = Router();
  // Built when first asked for: building it takes about 35 MB of memory that an instance whose
  // documentation nobody reads never needs. Only the JSON text is kept.
  let body: string | undefined;
  const assets = getAbsoluteFSPath();
  if (!fs.existsSync(path.join(assets, 'swagger-ui-bundle.js'))) throw new Error(`swagger-ui-dist assets missing at ${assets}`);

  router.get('/openapi.json', (_req, res) => {
    body ??= JSON.stringify(buildOpenApiDocument());
    sendText(res, 200, 'application/json; charset=utf-8', body);
  });
  router.get('/docs', directoryPage(DOCS_INDEX));
  router.get('/docs/index.html', (_req, res) => {
    sendText(res, 200, 'text/html; charset=utf-8', DOCS_INDEX);
  });
  router.get('/docs/docs-initializer.js', (_req, res) => {
    sendText(res, 200, 'application/javascript; charset=utf-8', DOCS_INITIALIZER);
  });
  // The package's own index.html and swagger-initializer.js point at the petstore: not served.
  router.use('/docs', express.static(assets, { index: false, fallthrough: true }));
  return router;
}
