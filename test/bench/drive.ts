import fs from 'node:fs';
import path from 'node:path';
import type { LoadResult, LoadSettings } from './load-plan';
import { LOAD_CORE, spawnPinned } from './processes';

let runs = 0;

/** Runs the load runner in its own process on the load core and returns what it measured. */
export async function drive(settings: LoadSettings, workDir: string): Promise<LoadResult> {
  const file = path.join(workDir, `load-settings-${runs++}.json`);
  fs.writeFileSync(file, JSON.stringify(settings));
  const child = spawnPinned(LOAD_CORE, process.execPath, [path.join(__dirname, 'load-runner.js'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  fs.rmSync(file, { force: true });
  if (code !== 0) throw new Error(`load runner exited with ${code}: ${stderr.trim()}`);
  return JSON.parse(stdout) as LoadResult;
}
