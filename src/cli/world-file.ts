import fs from 'node:fs';
import { ALERT_BATCH_SIZE, worldSourceOf, type AlertBatch, type WorldSource } from '../modules/world/world.source';
import { loadStreamJson, walkTokens, WorldTokenWalker, type StreamJson } from './world-tokens';

// A world file is streamed, never read whole: a million alerts are ~300 MB of JSON.
// Two passes: the first assembles every section but the alerts and counts them, the second
// (run by the loader once the sections are written) hands the alerts over in batches. So the
// alerts may come anywhere in the file, before or after the advisories and repositories.

// A file stream-json refuses is read again with JSON.parse when this small, so its message
// (and anything JSON.parse alone accepts) stays exactly as it was when files were read whole.
const REREAD_BYTES = 64 * 1024 * 1024;

/** Feeds the file's tokens to the walker a chunk at a time, pausing after each; stops once it needs no more. */
function walk(file: string, streamJson: StreamJson, walker: WorldTokenWalker): AsyncGenerator<void> {
  return walkTokens(file, streamJson, (token) => walker.consume(token), () => walker.hasAllAlerts);
}

function readWhole(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** The first pass: every section but the alerts, and where the alerts are and how many. */
async function readHead(file: string, streamJson: StreamJson): Promise<WorldSource | WorldTokenWalker> {
  const walker = new WorldTokenWalker(streamJson);
  try {
    for await (const _chunk of walk(file, streamJson, walker));
    if (!walker.isDone) throw new Error('Unexpected end of JSON input');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== undefined) throw error;
    if (fs.statSync(file).size <= REREAD_BYTES) return worldSourceOf(readWhole(file));
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return walker.isObject ? walker : worldSourceOf(walker.whole);
}

/** Opens a world file for the loader: its sections read, its alerts to be streamed. */
export async function openWorldFile(file: string): Promise<WorldSource> {
  const streamJson = await loadStreamJson();
  const head = await readHead(file, streamJson);
  if (!(head instanceof WorldTokenWalker)) return head;
  const occurrence = head.alertsArrayOccurrence;
  // Handed over once (the loader lets them go once written); read again if asked again.
  let held: Record<string, unknown> | undefined = head.sections;
  return {
    sections: async () => {
      const sections = held;
      held = undefined;
      if (sections !== undefined) return sections;
      const again = await readHead(file, streamJson);
      return again instanceof WorldTokenWalker ? again.sections : again.sections();
    },
    alertCount: occurrence === 0 ? 0 : head.alertCount,
    alertBatches: () => streamAlerts(file, streamJson, occurrence),
  };
}

/** The second pass: the alerts of the given "alerts" key, in batches, read as they are needed. */
async function* streamAlerts(file: string, streamJson: StreamJson, occurrence: number): AsyncGenerator<AlertBatch> {
  if (occurrence === 0) return;
  let pending: unknown[] = [];
  let start = 0;
  const batches: AlertBatch[] = [];
  const walker = new WorldTokenWalker(streamJson, {
    occurrence,
    take: (value) => {
      pending.push(value);
      if (pending.length === ALERT_BATCH_SIZE) {
        batches.push({ start, values: pending });
        start += pending.length;
        pending = [];
      }
    },
  });
  // Each batch is loaded before more of the file is read.
  for await (const _chunk of walk(file, streamJson, walker)) yield* batches.splice(0);
  if (pending.length > 0) yield { start, values: pending };
}
