import type { OrganizationRecord, RepositoryRecord } from '../accounts/accounts.types';
import type { AlertView } from '../dependency-alerts/alerts.types';

/** One alert as a VEX document states it. */
export interface VexEntry {
  view: AlertView;
  /**
   * The package URLs of the alert's vulnerable dependencies as the repository's current
   * snapshots hold them (with versions); for an alert no current dependency matches (fixed,
   * or declared by a world file), the package without a version; none for an ecosystem no
   * purl type names.
   */
  packageUrls: string[];
}

/** What a document covers: one repository's alerts or an organization's. */
export type VexSubject = { kind: 'repo'; repo: RepositoryRecord } | { kind: 'org'; org: OrganizationRecord };

/** What a document says of itself. */
export interface VexDocumentInfo {
  subject: VexSubject;
  /** The API's base URL: statements and advisories are named by their URLs under it. */
  apiBase: string;
  /** A fresh UUID: the document's serial number (CycloneDX) or IRI (OpenVEX). */
  uuid: string;
  /** When the document was made (ISO 8601). */
  timestamp: string;
  tool: { name: string; version: string };
}

/**
 * A VEX format written as a stream: `start`, then `entries` per batch of alerts, then `end`;
 * the text of each part is valid only in that order and once.
 */
export interface VexWriter {
  start(): string;
  entries(batch: readonly VexEntry[]): string;
  end(): string;
}
