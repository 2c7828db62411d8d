// A world to load, as the loader reads it: the small sections whole, the alerts in batches.
// A million parsed alerts do not fit in memory twice, so they are never parsed all at once.

/** Consecutive alerts of a world file, `start` being the index of the first. */
export interface AlertBatch {
  start: number;
  values: unknown[];
}

export interface WorldSource {
  /**
   * The world file's top level without its alerts array (or whole, when it is not an object
   * with one). A file's are handed over once and read from the file again if asked again (a
   * retried transaction), so the loader need not keep them while the alerts load.
   */
  sections(): Promise<unknown>;
  alertCount: number;
  /** The alerts in file order. Can be read again: a retried transaction reads them again. */
  alertBatches(): AsyncIterable<AlertBatch>;
}

export const ALERT_BATCH_SIZE = 1000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A world given whole (in-process): its alerts are sliced, never copied whole. */
export function worldSourceOf(input: unknown, batchSize = ALERT_BATCH_SIZE): WorldSource {
  if (!isPlainObject(input) || !Array.isArray(input.alerts)) return { sections: async () => input, alertCount: 0, alertBatches: async function* () {} };
  const { alerts, ...sections } = input as { alerts: unknown[] };
  return {
    sections: async () => sections,
    alertCount: alerts.length,
    async *alertBatches() {
      for (let start = 0; start < alerts.length; start += batchSize) yield { start, values: alerts.slice(start, start + batchSize) };
    },
  };
}
