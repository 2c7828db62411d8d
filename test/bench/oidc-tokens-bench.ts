import { BIG_ORG } from './generate-world';
import type { Sample, Scenario } from './measure';

// Issue 23: OIDC tokens. A mint signs an RS256 JWT per request (no response is cached for a
// POST), so its rate is the signing rate on the server's one core plus the request's path;
// once the key and the repository are known a mint reads only the data versions. The preview
// builds the same claims, nothing signed: its p50 from one client.

const RUN = { event_name: 'push', ref: 'refs/heads/main', sha: '9fceb02d0ae598e95dc970b74767f19372d61af8', workflow: 'deploy', actor: 'bench-owner', run_id: '4200000001' };

function postSample(auth: Record<string, string>, path: string, status: number, check: (json: unknown) => void): Sample {
  return { method: 'POST', path, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ context: RUN }), status, check };
}
const same = (sample: Sample) => ({ kind: 'same' as const, method: sample.method, path: sample.path, headers: sample.headers, expectStatus: sample.status, body: sample.body! });

export function oidcTokenScenarios(auth: Record<string, string>, o: { connections: number }): Scenario[] {
  const repo = `/repos/${BIG_ORG}/service-1`;
  const mint = postSample(auth, `${repo}/actions/oidc/token`, 201, (json) => {
    if (typeof (json as { value?: unknown }).value !== 'string') throw new Error('the mint answered no token');
  });
  const preview = postSample(auth, `${repo}/actions/oidc/customization/sub/preview`, 200, (json) => {
    if ((json as { sub?: unknown }).sub !== `repo:${BIG_ORG}/service-1:ref:refs/heads/main`) throw new Error(`unexpected preview ${JSON.stringify(json).slice(0, 200)}`);
  });
  return [
    { name: 'OIDC token mint (RS256), same run context', connections: o.connections, sample: mint, plan: same(mint), baseline: { kind: 'none' } },
    { name: 'OIDC sub preview, one client', connections: 1, sample: preview, plan: same(preview), baseline: { kind: 'none' } },
  ];
}
