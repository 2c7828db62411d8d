import { JsonFragment } from '../../shared/json-fragments';
import { serializeAdvisory, serializeVulnerability } from './advisories.serializers';
import type { AdvisoryRecord } from './advisories.types';

// An advisory as alerts embed it (`security_advisory`, spec §2.9) and each of its
// vulnerabilities as an alert shows the one it matched (`security_vulnerability`), serialized
// when the advisory is written and stored beside it (migration 20261204030000): a page of
// alerts splices them in as they are. The serializers stay the one definition of the shapes.

/**
 * The serializers' version: bump it when serializeAdvisory or serializeVulnerability changes
 * what they write, and stored copies of the old format are read from the rows instead, then
 * written again (advisories.alert-json-store.ts, at start-up). A serializer that comes to read
 * another column of advisories needs a migration adding it to the staleness triggers'.
 */
export const ADVISORY_ALERT_JSON_FORMAT = 1;

/** Whether stored columns of this format (NULL: stale) may be read as they are. */
export const isCurrentFormat = (format: unknown): boolean => format !== null && format !== undefined && Number(format) === ADVISORY_ALERT_JSON_FORMAT;

/** One vulnerability of an advisory: what picks it for an alert (alert-views.ts), and its JSON. */
export interface VulnerabilityJson {
  id: number;
  ecosystem: string;
  packageName: string;
  json: JsonFragment;
}

export interface AdvisoryAlertJson {
  advisory: JsonFragment;
  /** In id order, as the advisory's `vulnerabilities`. */
  vulnerabilities: VulnerabilityJson[];
}

/** The stored columns. */
export interface AdvisoryAlertJsonColumns {
  alert_json: string;
  alert_json_vulnerabilities: string;
  alert_json_format: number;
}

type StoredVulnerability = [id: number, ecosystem: string, packageName: string, json: unknown];

export function alertJsonColumnsOf(record: AdvisoryRecord): AdvisoryAlertJsonColumns {
  const vulnerabilities: StoredVulnerability[] = record.vulnerabilities.map((v) => [v.id, v.ecosystem, v.packageName, serializeVulnerability(v)]);
  return { alert_json: JSON.stringify(serializeAdvisory(record)), alert_json_vulnerabilities: JSON.stringify(vulnerabilities), alert_json_format: ADVISORY_ALERT_JSON_FORMAT };
}

/** The JSON of stored columns (of the current format). */
export function alertJsonOfColumns(columns: Pick<AdvisoryAlertJsonColumns, 'alert_json' | 'alert_json_vulnerabilities'>): AdvisoryAlertJson {
  const stored = JSON.parse(columns.alert_json_vulnerabilities) as StoredVulnerability[];
  return {
    advisory: JsonFragment.ofJson(columns.alert_json),
    vulnerabilities: stored.map(([id, ecosystem, packageName, json]) => ({ id, ecosystem, packageName, json: JsonFragment.of(json) })),
  };
}

/** The JSON of a record, serialized now (what the stored columns hold, byte for byte). */
export function alertJsonOfRecord(record: AdvisoryRecord): AdvisoryAlertJson {
  return alertJsonOfColumns(alertJsonColumnsOf(record));
}
