import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The README as a user reads it: its sections and the packages its examples install.

const ROOT = path.join(__dirname, '..', '..');
export const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The packages this project depends on (dependencies and devDependencies): an example may only install these, so the suite runs it. */
export function suitePackages(): string[] {
  return Object.keys(suiteVersions());
}

/** The suite's own packages with the versions it pins (package.json). */
export function suiteVersions(): Record<string, string> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return { ...pkg.dependencies, ...pkg.devDependencies };
}

/** The suite's overrides (package.json): what a README install must override as the suite does. */
export function suiteOverrides(): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).overrides ?? {};
}

/** One fenced code block of the README, in reading order. */
export interface ReadmeBlock {
  /** The block's language (`sh`, `js`, `ts`, `graphql`). */
  lang: string;
  /** The `## ` section it sits in. */
  section: string;
  /** Its first line's number in README.md (the line after the fence). */
  line: number;
  code: string;
}

export function readmeBlocks(text = README): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  let section = '';
  let open: ReadmeBlock | undefined;
  text.split('\n').forEach((line, index) => {
    if (open) {
      if (line.startsWith('```')) { blocks.push(open); open = undefined; } else open.code += `${line}\n`;
    } else if (line.startsWith('```')) {
      open = { lang: line.slice(3).trim(), section, line: index + 2, code: '' };
    } else if (line.startsWith('## ')) {
      section = line.slice(3).trim();
    }
  });
  return blocks;
}

/** One command of a shell block, and the output the README prints under it. */
export interface ReadmeCommand {
  /** As written: continuation lines and multi-line quotes kept, trailing comments too. */
  command: string;
  /** The `# ` lines right under it: what it prints (see `printedMatches`). */
  printed: string[];
}

/**
 * A shell block's commands. A command ends where bash would end it (a line that completes it:
 * `bash -n` finds it whole), so a quoted body spanning lines stays one command. A line starting
 * with `# ` at the margin is printed output of the command above it.
 */
export function shellCommands(code: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let pending = '';
  for (const line of code.replace(/\n$/, '').split('\n')) {
    if (pending === '' && /^#( |$)/.test(line)) {
      if (commands.length === 0) throw new Error(`printed output before any command: ${line}`);
      commands[commands.length - 1]!.printed.push(line.replace(/^# ?/, ''));
      continue;
    }
    pending += `${line}\n`;
    // bash -n takes a trailing backslash at the end of input as whole: a continued line is not.
    if (!line.endsWith('\\') && spawnSync('bash', ['-n'], { input: pending }).status === 0) {
      const isCommand = pending.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#'));
      if (isCommand) commands.push({ command: pending.replace(/\n$/, ''), printed: [] });
      pending = '';
    }
  }
  if (pending.trim() !== '') throw new Error(`an unfinished command: ${pending}`);
  return commands;
}

/** What a printed-output block says about the command: the text it prints, and its exit status. */
export interface Printed {
  /** The HTTP status its answer has, when the first line starts with one (`201 {…}`). */
  status: number | undefined;
  /** The exit status, when the last line ends with `(exit N)`; otherwise 0. */
  exit: number;
  /** The text, its lines joined (a long line may be wrapped), `…` standing for any text. */
  text: string;
}

export function parsePrinted(lines: string[]): Printed {
  let text = lines.map((line) => line.trim()).join('\n');
  let exit = 0;
  const exitMark = /\s*\(exit (\d+)\)$/.exec(text);
  if (exitMark) { exit = Number(exitMark[1]); text = text.slice(0, exitMark.index); }
  const statusMark = /^([1-5]\d\d)(?: |$)/.exec(text);
  const status = statusMark ? Number(statusMark[1]) : undefined;
  if (statusMark) text = text.slice(statusMark[0].length);
  return { status, exit, text };
}

/**
 * Whether `actual` is what the README prints: the same text with whitespace ignored (the
 * README wraps long lines), each `…` standing for any text, the whole of it matched.
 */
export function printedMatches(expected: string, actual: string): boolean {
  const squeeze = (text: string) => text.replace(/\s+/g, '');
  const pattern = squeeze(expected).split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?');
  return new RegExp(`^${pattern}$`).test(squeeze(actual));
}
