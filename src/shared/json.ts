/** JSON text columns: parsed on read, written as text on every dialect. */
export function parseJsonColumn<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value !== 'string') return value as T; // already decoded by a driver
  return JSON.parse(value) as T;
}

export function toJsonColumn(value: unknown): string {
  return JSON.stringify(value);
}
