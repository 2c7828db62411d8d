import { encodeCursor, type KeysetColumn } from '../../database/keyset';
import type { AlertRecord, AlertSort } from './alerts.types';

// Alert list cursors (REST Link headers and GraphQL edges alike): the sort value, then the id.

export const SORT_COLUMN: Record<AlertSort, { column: string; type: 'string' | 'number' }> = {
  created: { column: 'a.created_at', type: 'string' },
  updated: { column: 'a.updated_at', type: 'string' },
  epss_percentage: { column: 'a.epss_sort', type: 'number' },
};

/** The keyset order of a list: the sort column, then the alert id (unique) in the same direction. */
export function alertOrder(sort: AlertSort, direction: 'asc' | 'desc'): KeysetColumn[] {
  const { column, type } = SORT_COLUMN[sort];
  return [{ column, direction, type }, { column: 'a.id', direction, type: 'integer' }];
}

/** Cursors name the order they belong to: one from another sort is refused. */
export function alertListName(sort: AlertSort, direction: 'asc' | 'desc'): string {
  return `dependency_alerts:${sort}:${direction}`;
}

/** An alert's position in a list of the given order: its sort value, then its id. */
function sortValuesOf(alert: AlertRecord, sort: AlertSort): [string | number, number] {
  return [sort === 'created' ? alert.createdAt : sort === 'updated' ? alert.updatedAt : alert.epssSort, alert.id];
}

/** The cursor of an alert in a list of the given order (REST Link and GraphQL edges alike). */
export function alertCursor(alert: AlertRecord, sort: AlertSort, direction: 'asc' | 'desc'): string {
  return encodeCursor(alertListName(sort, direction), sortValuesOf(alert, sort));
}
