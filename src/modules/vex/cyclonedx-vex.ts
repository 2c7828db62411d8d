import { Enums, Models, Serialize, Spec } from '@cyclonedx/cyclonedx-library';
import { PackageURL } from 'packageurl-js';
import type { AdvisoryRecord } from '../advisories/advisories.types';
import { VEX_ASSESSMENTS, assessedState } from './vex-assessments';
import { advisoryUrl, aliasesOf, alertUrl, assessmentDetail, repositoryPurl } from './vex-facts';
import type { VexDocumentInfo, VexEntry, VexWriter } from './vex.types';

// A CycloneDX 1.6 BOM with vulnerabilities (https://cyclonedx.org/capabilities/vex/): each alert
// a vulnerability whose `analysis` says its assessment and whose `affects` names the vulnerable
// packages, listed as components of their repository. Items are normalized by
// @cyclonedx/cyclonedx-library for 1.6 and written as they come; the components, which
// vulnerabilities refer to, follow them, so only the components are held until the end.

export const CYCLONEDX_MEDIA_TYPE = 'application/vnd.cyclonedx+json';

const normalizers = new Serialize.JSON.Normalize.Factory(Spec.Spec1dot6);
const NO_OPTIONS = {};

/** CVSS vector prefixes and the rating methods CycloneDX names them by. */
const CVSS_METHODS: ReadonlyArray<[string, Enums.Vulnerability.RatingMethod]> = [
  ['CVSS:4.0/', Enums.Vulnerability.RatingMethod.CVSSv4],
  ['CVSS:3.1/', Enums.Vulnerability.RatingMethod.CVSSv31],
  ['CVSS:3.0/', Enums.Vulnerability.RatingMethod.CVSSv3],
];

const SEVERITIES: Readonly<Record<string, Enums.Vulnerability.Severity>> = {
  critical: Enums.Vulnerability.Severity.Critical, high: Enums.Vulnerability.Severity.High,
  medium: Enums.Vulnerability.Severity.Medium, low: Enums.Vulnerability.Severity.Low,
};

/** The alert properties a reader needs to tell every state apart (namespaced, as CycloneDX's property taxonomy asks). */
const PROPERTY = { number: 'orgsec:alert:number', state: 'orgsec:alert:state', reason: 'orgsec:alert:dismissed_reason', manifest: 'orgsec:alert:manifest_path' } as const;

interface RepositoryComponents {
  component: Models.Component;
  packages: Map<string, Models.Component>;
}

export class CycloneDxVexWriter implements VexWriter {
  private readonly repositories = new Map<number, RepositoryComponents>();
  private written = 0;

  constructor(private readonly info: VexDocumentInfo) {}

  start(): string {
    const { info } = this;
    const metadata = new Models.Metadata({ timestamp: new Date(info.timestamp) });
    metadata.tools.components.add(new Models.Component(Enums.ComponentType.Application, info.tool.name, { version: info.tool.version }));
    if (info.subject.kind === 'repo') metadata.component = this.repositoryOf(info.subject.repo).component;
    const head = {
      bomFormat: 'CycloneDX', specVersion: '1.6', serialNumber: `urn:uuid:${info.uuid}`, version: 1,
      metadata: normalizers.makeForMetadata().normalize(metadata, NO_OPTIONS),
    };
    return `${JSON.stringify(head).slice(0, -1)},"vulnerabilities":[`;
  }

  entries(batch: readonly VexEntry[]): string {
    return batch.map((entry) => `${this.written++ === 0 ? '' : ','}${JSON.stringify(this.vulnerability(entry))}`).join('');
  }

  end(): string {
    // A repository document lists its packages at the top (its repository is the metadata's component).
    const components = this.info.subject.kind === 'repo'
      ? [...this.repositories.values()].flatMap((r) => [...r.packages.values()])
      : [...this.repositories.values()].map((r) => {
        for (const p of r.packages.values()) r.component.components.add(p);
        return r.component;
      });
    const normalizer = normalizers.makeForComponent();
    return `],"components":${JSON.stringify(components.map((c) => normalizer.normalize(c, NO_OPTIONS)))}}`;
  }

  private vulnerability({ view, packageUrls }: VexEntry): unknown {
    const { alert, advisory } = view;
    const { apiBase } = this.info;
    const assessed = assessedState(alert);
    const { state, justification, response } = VEX_ASSESSMENTS[assessed].cyclonedx;
    const analysis = new Models.Vulnerability.Analysis({
      state: state as Enums.Vulnerability.AnalysisState, justification: justification as Enums.Vulnerability.AnalysisJustification | undefined,
      detail: assessmentDetail(view),
    });
    for (const r of response) analysis.response.add(r as Enums.Vulnerability.AnalysisResponse);
    const vulnerability = new Models.Vulnerability.Vulnerability({
      bomRef: alertUrl(apiBase, view), id: advisory.svcsaId, description: advisory.summary,
      source: new Models.Vulnerability.Source({ name: 'orgsec', url: new URL(advisoryUrl(apiBase, advisory)) }),
      published: new Date(advisory.publishedAt), updated: new Date(advisory.updatedAt), analysis,
    });
    for (const alias of aliasesOf(advisory)) vulnerability.references.add(new Models.Vulnerability.Reference(alias, referenceSource(alias)));
    vulnerability.ratings.add(ratingOf(advisory));
    for (const cwe of advisory.cwes) {
      const id = Number(/^CWE-(\d+)$/.exec(cwe.cwe_id)?.[1]);
      if (Number.isSafeInteger(id)) vulnerability.cwes.add(id);
    }
    for (const component of this.packagesOf(view, packageUrls)) vulnerability.affects.add(new Models.Vulnerability.Affect(component.bomRef));
    vulnerability.properties.add(new Models.Property(PROPERTY.number, String(alert.number)));
    vulnerability.properties.add(new Models.Property(PROPERTY.state, alert.state));
    if (alert.dismissedReason !== null) vulnerability.properties.add(new Models.Property(PROPERTY.reason, alert.dismissedReason));
    vulnerability.properties.add(new Models.Property(PROPERTY.manifest, alert.manifestPath));
    const json = normalizers.makeForVulnerability().normalize(vulnerability, NO_OPTIONS) as { analysis: Record<string, unknown> };
    // 1.5's dates of the analysis, which the library's model does not carry.
    json.analysis.firstIssued = alert.createdAt;
    json.analysis.lastUpdated = alert.updatedAt;
    return json;
  }

  /** The components of the alert's packages, each listed once per repository (its bom-ref names both). */
  private packagesOf({ alert, repository }: VexEntry['view'], packageUrls: readonly string[]): Models.Component[] {
    const { packages } = this.repositoryOf(repository);
    const refs = packageUrls.length > 0 ? packageUrls : [`${alert.ecosystem}:${alert.packageName}`];
    return refs.map((ref) => {
      let component = packages.get(ref);
      if (component === undefined) {
        const purl = packageUrls.length > 0 ? PackageURL.fromString(ref) : undefined;
        component = new Models.Component(Enums.ComponentType.Library, purl?.name ?? alert.packageName, {
          bomRef: `${repositoryPurl(repository)}#${ref}`, purl: purl?.toString(), version: purl?.version ?? undefined, group: purl?.namespace ?? undefined,
        });
        packages.set(ref, component);
      }
      return component;
    });
  }

  private repositoryOf(repo: VexEntry['view']['repository']): RepositoryComponents {
    let held = this.repositories.get(repo.id);
    if (held === undefined) {
      const purl = repositoryPurl(repo);
      const component = new Models.Component(Enums.ComponentType.Application, `${repo.ownerLogin}/${repo.name}`, { bomRef: purl, purl });
      held = { component, packages: new Map() };
      this.repositories.set(repo.id, held);
    }
    return held;
  }
}

function referenceSource(alias: string): Models.Vulnerability.Source {
  if (alias.startsWith('CVE-')) return new Models.Vulnerability.Source({ name: 'NVD', url: new URL(`https://nvd.nist.gov/vuln/detail/${alias}`) });
  if (alias.startsWith('GHSA-')) return new Models.Vulnerability.Source({ name: 'GitHub', url: new URL(`https://github.com/advisories/${alias}`) });
  return new Models.Vulnerability.Source({ name: alias.split('-')[0] });
}

/** The advisory's severity, with its CVSS score and vector when it has them. */
function ratingOf(advisory: AdvisoryRecord): Models.Vulnerability.Rating {
  const vector = advisory.cvssVectorString ?? undefined;
  const method = vector === undefined ? undefined : CVSS_METHODS.find(([prefix]) => vector.startsWith(prefix))?.[1];
  return new Models.Vulnerability.Rating({
    severity: SEVERITIES[advisory.severity] ?? Enums.Vulnerability.Severity.Unknown,
    score: advisory.cvssScore ?? undefined, method, vector: method === undefined ? undefined : vector,
  });
}
