import type { ApolloServerPlugin } from '@apollo/server';
import { API_VERSION } from '../http/api-version';

// The page a browser gets at /graphql: Apollo Sandbox, embedded from Apollo's CDN, under a bar
// that always links to GraphiQL, which orgsec serves itself. Without internet (or with the CDN
// blocked) the Sandbox script does not load and the page says so, pointing at GraphiQL.
// Built on Apollo's public plugin API (renderLandingPage), not on its default page's internals.

const SANDBOX_SCRIPT = 'https://embeddable-sandbox.cdn.apollographql.com/_latest/embeddable-sandbox.umd.production.min.js';

// No request reaches renderLandingPage, so the links are relative to the page: /graphql links
// /graphiql/ and /api/graphql links /api/graphiql/ (GraphiQL sits next to each GraphQL path).
const SANDBOX_CONFIG = JSON.stringify({
  target: '#sandbox',
  initialState: { includeCookies: false, headers: { 'X-Service-Api-Version': API_VERSION } },
  hideCookieToggle: false,
  endpointIsEditable: false,
  runTelemetry: false,
});

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width,initial-scale=1">
  <title>orgsec GraphQL</title>
  <style>
    body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: system-ui, sans-serif; }
    #explorers { margin: 0; padding: 6px 12px; font-size: 14px; background: #f6f8fa; border-bottom: 1px solid #d0d7de; }
    #sandbox { flex: 1; min-height: 0; }
    #sandbox iframe { width: 100%; height: 100%; border: none; }
    #sandbox-unavailable { padding: 24px; font-size: 16px; }
  </style>
</head>
<body>
  <p id="explorers">This is the orgsec GraphQL API. Apollo Sandbox below loads from Apollo's CDN;
    offline, or to stay on this server, use <a href="graphiql/">GraphiQL, served by orgsec</a>.</p>
  <div id="sandbox-unavailable" role="alert" hidden>
    <h1>Apollo Sandbox could not be loaded</h1>
    <p>It comes from Apollo's CDN, which this browser cannot reach (offline, or blocked).</p>
    <p><a href="graphiql/">Open GraphiQL</a>: the same API, explored with nothing but this server.</p>
  </div>
  <div id="sandbox"></div>
  <script src="${SANDBOX_SCRIPT}"></script>
  <script>
    // The script above blocks parsing: by now it has either run or failed to load.
    if (window.EmbeddedSandbox) {
      new window.EmbeddedSandbox(Object.assign(${SANDBOX_CONFIG}, { initialEndpoint: window.location.href }));
    } else {
      document.getElementById('sandbox').hidden = true;
      document.getElementById('sandbox-unavailable').hidden = false;
    }
  </script>
</body>
</html>
`;

/** The /graphql landing page: Sandbox when it can load, and a way to GraphiQL always. */
export function landingPageWithGraphiQL(): ApolloServerPlugin {
  return {
    async serverWillStart() {
      return {
        async renderLandingPage() {
          return { html: PAGE };
        },
      };
    },
  };
}
