import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A `*.json` file found, or a folder that could not be listed (the walk goes on past it). */
export type FolderEntry = { file: string } | { unreadableFolder: string; error: unknown };

/**
 * The `*.json` files under a folder, depth first in name order (a stable import order). Only one
 * directory listing per level is held at a time, so memory follows the tree's width, not its size.
 * Symbolic links are not followed (a link cycle would never end).
 */
export async function* jsonFilesUnder(folder: string): AsyncGenerator<FolderEntry> {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true }); // synchronous, as osv-sources.ts says why
  } catch (error) {
    yield { unreadableFolder: folder, error };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* jsonFilesUnder(path);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.json')) yield { file: path };
  }
}
