import { readCycloneDx } from './cyclonedx-reader';
import { readSpdx } from './spdx-reader';
import type { SbomReading } from './sbom.types';

/** A document as uploaded: JSON, then CycloneDX (bomFormat) or SPDX (spdxVersion), each checked against its specification. */
export function readSbom(text: string): SbomReading {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // JSON.parse says where the text stops being JSON; its own wording is V8's, not ours.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    return { ok: false, problems: [{ path: '/', message: `is not valid JSON${at === undefined ? '' : ` (from character ${at})`}` }] };
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    return { ok: false, problems: [{ path: '/', message: 'must be a JSON object: a CycloneDX BOM or an SPDX document' }] };
  }
  const fields = document as Record<string, unknown>;
  if (fields.bomFormat === 'CycloneDX') return readCycloneDx(document as Parameters<typeof readCycloneDx>[0]);
  if (typeof fields.spdxVersion === 'string') {
    if (fields.spdxVersion !== 'SPDX-2.3') return { ok: false, problems: [{ path: '/spdxVersion', message: `SPDX-2.3 is read; this document is ${JSON.stringify(fields.spdxVersion)}` }] };
    return readSpdx(document);
  }
  return { ok: false, problems: [{ path: '/', message: 'is neither a CycloneDX BOM ("bomFormat": "CycloneDX") nor an SPDX document ("spdxVersion": "SPDX-2.3")' }] };
}
