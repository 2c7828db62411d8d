import { readFile, stat } from 'node:fs/promises';
import { MalformedOsvFileError, MAX_OSV_FILE_BYTES, parseOsvDocument, tooLarge, type OsvSourceItem } from './osv-document';
import { jsonFilesUnder } from './osv-folder';
import { osvDocumentsInZip } from './osv-zip';

function unreadable(path: string, error: unknown): OsvSourceItem {
  const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : `unreadable (${(error as Error).message})`;
  return { path, error: new MalformedOsvFileError(path, reason) };
}

async function documentInFile(path: string): Promise<OsvSourceItem> {
  try {
    const { size } = await stat(path);
    if (size > MAX_OSV_FILE_BYTES) return tooLarge(path, size);
    return parseOsvDocument(path, await readFile(path, 'utf8'));
  } catch (error) {
    return unreadable(path, error);
  }
}

/** Runs a zip to its end; if it fails part way (a corrupt directory), that PATH is reported and the walk goes on. */
async function* guarded(path: string, items: AsyncGenerator<OsvSourceItem>): AsyncGenerator<OsvSourceItem> {
  try {
    yield* items;
  } catch (error) {
    yield unreadable(path, error);
  }
}

async function* documentsAt(path: string): AsyncGenerator<OsvSourceItem> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch (error) {
    yield unreadable(path, error);
    return;
  }
  if (isFolder) {
    for await (const entry of jsonFilesUnder(path)) {
      yield 'file' in entry ? await documentInFile(entry.file) : unreadable(entry.unreadableFolder, entry.error);
    }
  } else if (path.toLowerCase().endsWith('.zip')) {
    yield* guarded(path, osvDocumentsInZip(path));
  } else {
    yield await documentInFile(path);
  }
}

/**
 * Every OSV advisory under the given PATHs (interfaces.md "Advisory database": OSV JSON files,
 * folders walked recursively for `*.json`, `.zip` dumps), one at a time and in order. A malformed
 * or unreadable file yields its MalformedOsvFileError and the walk goes on.
 */
export async function* readOsvSources(paths: readonly string[]): AsyncGenerator<OsvSourceItem> {
  for (const path of paths) yield* documentsAt(path);
}
