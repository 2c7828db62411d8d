import { spawn, type ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// One bash session a user types into: commands run one after another in the same shell, so a
// `cd` or a variable set by one holds for the next, as in a terminal. Each command's output is
// kept apart (files of its own), and the session's own output carries only the end marks.
// The session leads a process group, so whatever a command left in the background ends with it.

export interface CommandRun {
  stdout: string;
  stderr: string;
  /** The command's exit status. */
  status: number;
}

const END = '__readme_command_ended__';

export class ShellSession {
  private readonly bash: ChildProcessWithoutNullStreams;
  private readonly outputDir: string;
  private marks = '';
  private count = 0;
  private waiting?: () => void;

  constructor(cwd: string, env: Record<string, string>, outputDir: string) {
    this.outputDir = outputDir;
    fs.mkdirSync(outputDir, { recursive: true });
    this.bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env, detached: true });
    this.bash.stdout.on('data', (chunk: Buffer) => { this.marks += chunk.toString(); this.waiting?.(); });
    this.bash.stderr.on('data', (chunk: Buffer) => { this.marks += chunk.toString(); });
  }

  /** Runs one command as typed at the prompt; resolves with what it printed once it ends. */
  async run(command: string, timeoutMs = 120_000): Promise<CommandRun> {
    const n = ++this.count;
    const out = path.join(this.outputDir, `${n}.out`);
    const err = path.join(this.outputDir, `${n}.err`);
    const mark = `${END} ${n} `;
    // Standard input is not the terminal's: a command that reads it must not eat the next ones.
    this.bash.stdin.write(`{ ${command}\n} > '${out}' 2> '${err}' < /dev/null; echo "${mark}$?"\n`);
    const deadline = Date.now() + timeoutMs;
    let ended: RegExpExecArray | null;
    while (!(ended = new RegExp(`${mark}(\\d+)\\n`).exec(this.marks))) {
      if (this.bash.exitCode !== null) throw new Error(`the shell ended (${this.bash.exitCode}) during: ${command}\n${this.marks}`);
      if (Date.now() > deadline) throw new Error(`still running after ${timeoutMs} ms: ${command}`);
      await new Promise<void>((resolve) => { this.waiting = resolve; setTimeout(resolve, 200); });
    }
    return { stdout: fs.readFileSync(out, 'utf8'), stderr: fs.readFileSync(err, 'utf8'), status: Number(ended[1]) };
  }

  /** The session's working directory and exported variables, as a command started from it would have them. */
  async state(): Promise<{ cwd: string; env: Record<string, string> }> {
    const cwd = (await this.run('pwd')).stdout.trim();
    const env: Record<string, string> = {};
    for (const entry of (await this.run('env -0')).stdout.split('\0')) {
      const at = entry.indexOf('=');
      if (at > 0) env[entry.slice(0, at)] = entry.slice(at + 1);
    }
    return { cwd, env };
  }

  /** Ends the session and everything it started in the background. */
  close(): Promise<void> {
    return endProcessGroup(this.bash, 'SIGTERM', 5_000);
  }
}

/** Sends `signal` to the process group `leader` leads, SIGKILL after `graceMs`; resolves once the leader has ended. */
export async function endProcessGroup(leader: ChildProcess, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (leader.exitCode !== null || leader.signalCode !== null) return;
  const ended = new Promise((resolve) => leader.once('exit', resolve));
  const signalGroup = (sent: NodeJS.Signals) => { try { process.kill(-leader.pid!, sent); } catch { /* already gone */ } };
  signalGroup(signal);
  const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
  await ended;
  clearTimeout(timer);
}
