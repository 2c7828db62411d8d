import { spawn } from 'node:child_process';
import path from 'node:path';

// A user's script run as they run it: an ES module in its own Node process, from the project
// root (so its packages resolve from node_modules as from the user's own), with only the
// environment given (and PATH).

const ROOT = path.join(__dirname, '..', '..');

export function runNodeModule(code: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stdout, stderr }));
    child.stdin.end(code);
  });
}
