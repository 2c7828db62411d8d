import { isDeepStrictEqual } from 'node:util';

/** What a record's `changes` holds: each field that changed, before and after. */
export type FieldChanges = Record<string, { before: unknown; after: unknown }>;

/** The fields whose values differ between `before` and `after` (by value); undefined when none does. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): FieldChanges | undefined {
  const changes: FieldChanges = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!isDeepStrictEqual(before[key], after[key])) changes[key] = { before: before[key] ?? null, after: after[key] ?? null };
  }
  return Object.keys(changes).length === 0 ? undefined : changes;
}
