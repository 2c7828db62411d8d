import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { SERVER_CORE, spawnPinned, stopProcess } from './processes';

// The floors, each its own process on the server core: what the same machine answers when
// nothing is computed per request.

export interface RunningServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A bench server script of this directory, on the server core, once it prints `ready`. */
export async function startReadyServer(script: string, args: string[], port: number): Promise<RunningServer> {
  const child = spawnPinned(SERVER_CORE, process.execPath, [path.join(__dirname, script), ...args, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [undefined])])) as [Buffer | undefined];
  if (!chunk?.toString().includes('ready')) throw new Error(`${script} did not start`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopProcess(child) };
}

/** Raw node:http sending exactly `bytes` (kept in `file` for the floor process to read), after `busyMs` of CPU per request. */
export function startBytesFloor(bytes: Buffer, file: string, port: number, busyMs = 0): Promise<RunningServer> {
  fs.writeFileSync(file, bytes);
  return startReadyServer('floor-server.js', [...(busyMs > 0 ? [`--busy-ms=${busyMs}`] : []), file], port);
}

/** Raw node:http answering a tiny constant JSON. */
export function startTinyFloor(port: number): Promise<RunningServer> {
  return startReadyServer('floor-server.js', ['--tiny'], port);
}

/** A one-route Express app answering a tiny constant JSON. */
export function startExpressFloor(port: number): Promise<RunningServer> {
  return startReadyServer('express-floor.js', [], port);
}
