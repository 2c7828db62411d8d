import type { AdvisorySeverity } from './osv.types';

// GitHub's database_specific.severity words; MODERATE is spec §2.9's `medium`.
const DATABASE_SEVERITIES: Readonly<Record<string, AdvisorySeverity>> = {
  LOW: 'low',
  MODERATE: 'medium',
  HIGH: 'high',
  CRITICAL: 'critical',
};

/** The severity the source states (`database_specific.severity`), or null when it states none we know. */
export function severityFromDatabase(word: string | null | undefined): AdvisorySeverity | null {
  return (word && DATABASE_SEVERITIES[word.toUpperCase()]) || null;
}

/**
 * The qualitative rating of a CVSS score, the bands CVSS v3.1 §5 and v4.0 §6 share: 0.1–3.9 low,
 * 4.0–6.9 medium, 7.0–8.9 high, 9.0–10.0 critical. A score of 0.0 ("None") says nothing: unknown.
 */
export function severityFromScore(score: number): AdvisorySeverity {
  if (score >= 9) return 'critical';
  if (score >= 7) return 'high';
  if (score >= 4) return 'medium';
  if (score > 0) return 'low';
  return 'unknown';
}
