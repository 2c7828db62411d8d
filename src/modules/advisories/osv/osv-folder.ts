import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The `*.json` files under a folder, depth first in name order (a stable import order). Only one
 * directory listing per level is held at a time, so memory follows the tree's width, not its size.
 * Symbolic links are not followed (a link cycle would never end).
 */
export async function* jsonFilesUnder(folder: string): AsyncGenerator<string> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* jsonFilesUnder(path);
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.json')) yield path;
  }
}
