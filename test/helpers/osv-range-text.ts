import type { OsvEvent, RangeRendering, RenderRange } from '../../src/modules/advisories/osv';

/**
 * The GitHub range syntax of the simple event lists the OSV fixtures carry (`introduced`, then
 * `fixed` or `last_affected`), for tests of the mapping only: the version engine
 * (src/modules/advisories/versions/) is what the importer passes as RenderRange.
 */
export const renderSimpleRange: RenderRange = (_ecosystem, events: readonly OsvEvent[]): RangeRendering => {
  const parts: string[] = [];
  for (const event of events) {
    if ('introduced' in event) {
      if (event.introduced !== '0') parts.push(`>= ${event.introduced}`);
    } else if ('fixed' in event) parts.push(`< ${event.fixed}`);
    else if ('last_affected' in event) parts.push(`<= ${event.last_affected}`);
    else return { ok: false, reason: `limit events are not rendered here (${event.limit})` };
  }
  return { ok: true, range: parts.join(', ') };
};
