import type { AdvisoryRecord } from '../modules/advisories/advisories.types';
import { externalLink, html, type Html } from './html';
import { facts, type Page } from './page';

// An advisory of the global database: what it is, how bad, what it affects, where to read more.
// The description is shown as text (line breaks kept), never as markup.

export const severityOf = (severity: string): Html => html`<span class="severity-${severity}">${severity}</span>`;

export function identifiersOf(advisory: Pick<AdvisoryRecord, 'identifiers'>): Html {
  return html`${advisory.identifiers.map((id, i) => html`${i > 0 ? ', ' : ''}<code>${id.value}</code> (${id.type})`)}`;
}

function cvssOf(advisory: AdvisoryRecord): Html | null {
  if (advisory.cvssVectorString === null && advisory.cvssScore === null) return null;
  return html`${advisory.cvssScore ?? ''} <code>${advisory.cvssVectorString ?? ''}</code>`;
}

function affectedPackages(advisory: AdvisoryRecord): Html {
  if (advisory.vulnerabilities.length === 0) return html`<p>No affected packages are listed.</p>`;
  return html`<table>
      <thead><tr><th scope="col">Ecosystem</th><th scope="col">Package</th><th scope="col">Vulnerable versions</th><th scope="col">First patched</th><th scope="col">Severity</th></tr></thead>
      <tbody>${advisory.vulnerabilities.map((v) => html`
        <tr><td>${v.ecosystem}</td><td><code>${v.packageName}</code></td><td><code>${v.vulnerableVersionRange}</code></td><td>${v.firstPatchedVersion ?? 'none'}</td><td>${severityOf(v.severity)}</td></tr>`)}
      </tbody>
    </table>`;
}

export function advisoryPage(advisory: AdvisoryRecord): Page {
  return {
    title: `${advisory.svcsaId}: ${advisory.summary}`,
    body: html`${advisory.withdrawnAt === null ? '' : html`<p><strong>Withdrawn</strong> on <time>${advisory.withdrawnAt}</time>.</p>`}
    ${facts([
      ['Severity', severityOf(advisory.severity)],
      ['CVSS', cvssOf(advisory)],
      ['Identifiers', identifiersOf(advisory)],
      ['CWEs', advisory.cwes.map((cwe, i) => html`${i > 0 ? ', ' : ''}${cwe.cwe_id} ${cwe.name}`)],
      ['Type', advisory.type],
      ['Classification', advisory.classification],
      ['Published', html`<time>${advisory.publishedAt}</time>`],
      ['Updated', html`<time>${advisory.updatedAt}</time>`],
    ])}
    <h2>Description</h2>
    <div class="text">${advisory.description}</div>
    <h2>Affected packages</h2>
    ${affectedPackages(advisory)}
    <h2>References</h2>
    ${advisory.references.length === 0 ? html`<p>None.</p>` : html`<ul>${advisory.references.map((r) => html`<li>${externalLink(r.url)}</li>`)}</ul>`}`,
  };
}
