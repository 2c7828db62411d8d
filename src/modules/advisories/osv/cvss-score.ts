import { Cvss3P0, Cvss3P1, Cvss4P0 } from 'ae-cvss-calculator';
import { LRUCache } from 'lru-cache';

export type CvssKind = 'CVSS_V3' | 'CVSS_V4';

export type CvssScoring = { ok: true; score: number } | { ok: false; reason: string };

// The base metrics each version requires (CVSS v3.1 spec §6, v4.0 spec §7). ae-cvss-calculator
// scores a vector with missing or repeated metrics as if they were "not defined"; a vector an
// advisory publishes must name each base metric once, so that is checked here first.
const V3_BASE = ['AV', 'AC', 'PR', 'UI', 'S', 'C', 'I', 'A'];
const V4_BASE = ['AV', 'AC', 'AT', 'PR', 'UI', 'VC', 'VI', 'VA', 'SC', 'SI', 'SA'];

const PREFIXES: Readonly<Record<CvssKind, readonly string[]>> = { CVSS_V3: ['CVSS:3.0', 'CVSS:3.1'], CVSS_V4: ['CVSS:4.0'] };

function shapeProblem(kind: CvssKind, vector: string): string | null {
  const [prefix, ...parts] = vector.split('/');
  if (prefix === undefined || !PREFIXES[kind].includes(prefix)) return `must start with ${PREFIXES[kind].join(' or ')}`;
  const values = new Map<string, string>();
  for (const part of parts) {
    const match = /^([A-Za-z]+):([A-Za-z]+)$/.exec(part);
    if (!match?.[1] || !match[2]) return `"${part}" is not a METRIC:VALUE pair`;
    if (values.has(match[1])) return `metric ${match[1]} is repeated`;
    values.set(match[1], match[2]);
  }
  // "X" (not defined) is allowed for the other metrics only.
  const missing = (kind === 'CVSS_V3' ? V3_BASE : V4_BASE).filter((metric) => (values.get(metric) ?? 'X') === 'X');
  return missing.length > 0 ? `base metric${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing` : null;
}

// Advisories share vectors (a few thousand distinct ones over the public database), and scoring
// one is most of what mapping an advisory costs: scores are kept by vector.
const scored = new LRUCache<string, CvssScoring>({ max: 20_000 });

/**
 * The score of a CVSS vector: the base score for v3.0/v3.1; for v4.0 the score FIRST's calculator
 * gives the vector as written (the base score when, as in advisories, only base metrics are set).
 */
export function scoreCvssVector(kind: CvssKind, vector: string): CvssScoring {
  const key = `${kind} ${vector}`;
  let scoring = scored.get(key);
  if (scoring === undefined) scored.set(key, (scoring = computeScore(kind, vector)));
  return scoring;
}

function computeScore(kind: CvssKind, vector: string): CvssScoring {
  const problem = shapeProblem(kind, vector);
  if (problem) return { ok: false, reason: problem };
  try {
    if (kind === 'CVSS_V4') return { ok: true, score: new Cvss4P0(vector).calculateScores().overall };
    const cvss = vector.startsWith('CVSS:3.0/') ? new Cvss3P0(vector) : new Cvss3P1(vector);
    const base = cvss.calculateScores().base;
    return base === undefined ? { ok: false, reason: 'has no base score' } : { ok: true, score: base };
  } catch (error) {
    // The library throws on an unknown metric or value ("Unknown component value Q for component AV").
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}
