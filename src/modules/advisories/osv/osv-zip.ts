import { text } from 'node:stream/consumers';
import * as yauzl from 'yauzl';
import { MalformedOsvFileError, MAX_OSV_FILE_BYTES, parseOsvDocument, tooLarge, type OsvSourceItem } from './osv-document';

/** `all.zip!/GHSA-….json`: where an entry came from, in the form Java tools print. */
export function zipEntryPath(zipPath: string, entryName: string): string {
  return `${zipPath}!/${entryName}`;
}

/**
 * The `*.json` entries of a zip (the OSV dumps' per-ecosystem all.zip), read one at a time with
 * yauzl's lazy entries so memory does not grow with the number of advisories. A zip that cannot be
 * opened or whose directory is corrupt throws: the caller reports that PATH and goes on.
 */
export async function* osvDocumentsInZip(zipPath: string): AsyncGenerator<OsvSourceItem> {
  const zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: true });
  for await (const entry of zip.eachEntry()) {
    if (entry.fileName.endsWith('/') || !entry.fileName.toLowerCase().endsWith('.json')) continue;
    const path = zipEntryPath(zipPath, entry.fileName);
    if (entry.uncompressedSize > MAX_OSV_FILE_BYTES) {
      yield tooLarge(path, entry.uncompressedSize);
      continue;
    }
    let content: string;
    try {
      content = await text(await zip.openReadStreamPromise(entry));
    } catch (error) {
      // A damaged entry (bad CRC, bad deflate data): the directory is intact, so the next entries still read.
      yield { path, error: new MalformedOsvFileError(path, `unreadable zip entry (${(error as Error).message})`) };
      continue;
    }
    yield parseOsvDocument(path, content);
  }
}
