/** Timestamps are stored and shown as UTC `YYYY-MM-DDTHH:MM:SSZ` on every dialect. */
export function toTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function nowTimestamp(): string {
  return toTimestamp(new Date());
}

/** Normalizes any ISO 8601 instant to the stored form; undefined when unparsable. */
export function normalizeTimestamp(value: string): string | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : toTimestamp(new Date(ms));
}
