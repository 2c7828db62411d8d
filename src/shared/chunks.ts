/**
 * `items` in runs of at most `size`, in order: statements over many rows are split so each
 * stays under the dialects' bound-parameter limits (SQLite 32,766, PostgreSQL 65,535).
 */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** Values per `IN (...)` list of one statement: well under both dialects' bound-parameter limits. */
export const VALUES_PER_IN_LIST = 500;
