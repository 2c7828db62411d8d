import { BadRequestError } from '../../errors/domain';

// Cursors of a role's holder lists (#9, #10), which REST pages by number: an offset into the
// named list, so a cursor from one role's list is refused by another's.

export function roleHoldersList(holders: 'teams' | 'users', orgId: number, roleId: number): string {
  return `role_${holders}:${orgId}:${roleId}`;
}

export function offsetCursor(list: string, offset: number): string {
  return Buffer.from(JSON.stringify({ l: list, o: offset })).toString('base64url');
}

export function offsetOf(list: string, cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { l?: unknown; o?: unknown };
    if (parsed.l === list && Number.isSafeInteger(parsed.o) && (parsed.o as number) >= 0) return parsed.o as number;
  } catch {
    // fall through
  }
  throw new BadRequestError('The cursor is not valid for this list.');
}
