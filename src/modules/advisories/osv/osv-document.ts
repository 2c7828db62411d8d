/** An OSV file's JSON: an object with a non-empty string `id` (the rest is checked by the mapping). */
export type OsvDocument = Record<string, unknown> & { id: string };

/** Why a file could not be read as an OSV advisory; the walk goes on past it. */
export class MalformedOsvFileError extends Error {
  override readonly name = 'MalformedOsvFileError';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** One file of an OSV source: its parsed document, or why it has none. */
export type OsvSourceItem = { path: string; document: OsvDocument } | { path: string; error: MalformedOsvFileError };

/** A file larger than this is refused unread: the largest real advisories are a few hundred KB. */
export const MAX_OSV_FILE_BYTES = 16 * 1024 * 1024;

export function parseOsvDocument(path: string, text: string): OsvSourceItem {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { path, error: new MalformedOsvFileError(path, `not JSON (${(error as Error).message})`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { path, error: new MalformedOsvFileError(path, 'not an OSV object (the JSON is not an object)') };
  }
  const id = (value as { id?: unknown }).id;
  if (typeof id !== 'string' || id.trim() === '') {
    return { path, error: new MalformedOsvFileError(path, 'not an OSV advisory: "id" is missing or not a non-empty string') };
  }
  return { path, document: value as OsvDocument };
}

export function tooLarge(path: string, bytes: number): OsvSourceItem {
  return { path, error: new MalformedOsvFileError(path, `${bytes} bytes, more than the ${MAX_OSV_FILE_BYTES} an OSV file may have`) };
}
