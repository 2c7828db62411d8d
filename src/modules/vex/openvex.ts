import { VEX_ASSESSMENTS, assessedState } from './vex-assessments';
import { advisoryUrl, aliasesOf, alertUrl, assessmentDetail, repositoryPurl } from './vex-facts';
import type { VexDocumentInfo, VexEntry, VexWriter } from './vex.types';

// An OpenVEX 0.2.0 document (https://github.com/openvex/spec): one statement per alert, its
// product the repository (`pkg:github/owner/name`) with the vulnerable packages as
// subcomponents, its status from vex-assessments.ts. The specification requires an affected
// statement to carry an action statement, and a not-affected one a justification or an impact
// statement (not both); the comment of a dismissal follows the table's sentence there, or is
// the status notes.

export const OPENVEX_MEDIA_TYPE = 'application/openvex+json';
export const OPENVEX_CONTEXT = 'https://openvex.dev/ns/v0.2.0';

export class OpenVexWriter implements VexWriter {
  private written = 0;

  constructor(private readonly info: VexDocumentInfo) {}

  start(): string {
    const { info } = this;
    const head = {
      '@context': OPENVEX_CONTEXT, '@id': `urn:uuid:${info.uuid}`, author: `${info.tool.name} (${info.apiBase})`,
      timestamp: info.timestamp, version: 1, tooling: `${info.tool.name} ${info.tool.version}`,
    };
    return `${JSON.stringify(head).slice(0, -1)},"statements":[`;
  }

  entries(batch: readonly VexEntry[]): string {
    return batch.map((entry) => `${this.written++ === 0 ? '' : ','}${JSON.stringify(this.statement(entry))}`).join('');
  }

  end(): string {
    return ']}';
  }

  private statement({ view, packageUrls }: VexEntry): Record<string, unknown> {
    const { alert, advisory, repository } = view;
    const { apiBase } = this.info;
    const { status, justification, statement } = VEX_ASSESSMENTS[assessedState(alert)].openvex;
    const comment = alert.dismissedComment === null || alert.dismissedComment === '' ? undefined : alert.dismissedComment;
    const explained = statement === undefined ? undefined : comment === undefined ? statement : `${statement} ${comment}`;
    const aliases = aliasesOf(advisory);
    const product = repositoryPurl(repository);
    return {
      '@id': alertUrl(apiBase, view),
      vulnerability: { '@id': advisoryUrl(apiBase, advisory), name: advisory.svcsaId, description: advisory.summary, ...(aliases.length > 0 ? { aliases } : {}) },
      timestamp: alert.updatedAt,
      products: [{
        '@id': product, identifiers: { purl: product },
        ...(packageUrls.length > 0 ? { subcomponents: packageUrls.map((purl) => ({ '@id': purl, identifiers: { purl } })) } : {}),
      }],
      status,
      ...(justification === undefined ? {} : { justification }),
      ...(explained === undefined ? {} : status === 'affected' ? { action_statement: explained, action_statement_timestamp: alert.updatedAt } : { impact_statement: explained }),
      ...statusNotes(assessmentDetail(view)),
    };
  }
}

const statusNotes = (detail: string | undefined) => (detail === undefined ? {} : { status_notes: detail });
