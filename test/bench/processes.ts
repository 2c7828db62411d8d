import net from 'node:net';
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

// Child processes of the bench: pinned to a core where taskset exists (taskset execs the
// command, so the pid stays the command's own and its /proc status can be read).

export const hasTaskset = fs.existsSync('/usr/bin/taskset') && os.cpus().length > 1;
/** Servers on core 0, load generators on core 1: they never compete for a core. */
export const SERVER_CORE = 0;
export const LOAD_CORE = 1;

export function spawnPinned(core: number | undefined, command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return core !== undefined && hasTaskset ? spawn('taskset', ['-c', String(core), command, ...args], options) : spawn(command, args, options);
}

/**
 * Pins this process, every thread of it, to `core` (undefined: every core again): for the
 * stretches where the bench itself sends load beside autocannon, so it takes the load core, not the server's.
 */
export function pinSelf(core: number | undefined): void {
  if (!hasTaskset) return;
  const cores = core === undefined ? `0-${os.cpus().length - 1}` : String(core);
  spawnSync('taskset', ['-a', '-p', '-c', cores, String(process.pid)], { stdio: 'ignore' });
}

/** Resolves when `url` answers 2xx; rejects after about 20 s or when `child` exits first. */
export async function waitForHttp(url: string, child?: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child && child.exitCode !== null) throw new Error(`the server for ${url} exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill();
  await exited;
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM), or undefined once the process is gone. */
export function readStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used (user and system, all its threads; /proc/<pid>/stat), or undefined once it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks: USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** Samples a process's resident memory every `everyMs` until stopped; stop() gives the largest sample. */
export function sampleRss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS', everyMs = 200): { stop(): number } {
  let max = readStatusBytes(pid, field) ?? 0;
  const timer = setInterval(() => {
    max = Math.max(max, readStatusBytes(pid, field) ?? 0);
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      max = Math.max(max, readStatusBytes(pid, field) ?? 0);
      return max;
    },
  };
}

export interface TimedRun {
  code: number | null;
  seconds: number;
  /** VmHWM: the process's own peak, so the last sample before it exits is the peak of the run. */
  peakRssBytes: number;
  timedOut: boolean;
}

/** Waits for `child` to exit, stopping it after `timeoutSeconds`; its time and peak RSS. */
export async function timedRun(child: ChildProcess, timeoutSeconds: number): Promise<TimedRun> {
  const started = Date.now();
  const peak = sampleRss(child.pid!, 'VmHWM', 100);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopProcess(child);
  }, timeoutSeconds * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, seconds: (Date.now() - started) / 1000, peakRssBytes: peak.stop(), timedOut };
}

/** A TCP port free on loopback right now (the OS's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}
