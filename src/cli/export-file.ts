import fs from 'node:fs';
import type { Database } from '../database/connection';
import { exportDatabase, type ExportHeader, type ExportSink } from '../database/export';
import type { RestoreBatch } from '../database/restore';
import { loadStreamJson, walkTokens, type StreamJson, type Token } from './world-tokens';

// The export file: a world file of its own kind, `{"orgsec_export": {header}, "tables":
// {"accounts": {"columns": [...], "rows": [[...], ...]}, ...}, "counts": {...}}`, one row per
// line. Written as the rows are read and read as they are restored, a page at a time: neither
// side holds a table in memory.

const BATCH_ROWS = 1000;

/** Writes to a file stream, waiting whenever its buffer is full. */
function fileSink(stream: fs.WriteStream): ExportSink {
  let firstTable = true;
  let firstRow = true;
  const write = (text: string) => new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    if (stream.write(text)) {
      stream.off('error', reject);
      resolve();
    } else {
      stream.once('drain', () => { stream.off('error', reject); resolve(); });
    }
  });
  return {
    header: (header) => write(`{"orgsec_export":${JSON.stringify(header)},\n"tables":{`),
    table: (name, columns) => {
      const text = `${firstTable ? '' : ']},'}\n${JSON.stringify(name)}:{"columns":${JSON.stringify(columns)},"rows":[`;
      firstTable = false;
      firstRow = true;
      return write(text);
    },
    rows: (rows) => {
      const text = rows.map((row, i) => `${firstRow && i === 0 ? '' : ','}\n${JSON.stringify(row)}`).join('');
      if (rows.length > 0) firstRow = false;
      return write(text);
    },
    end: (counts) => write(`${firstTable ? '' : ']}'}\n},\n"counts":${JSON.stringify(counts)}}\n`),
  };
}

/**
 * Writes the export to `file`, which must not exist: beside it first (`.partial`), given its
 * name once whole, so a stopped export never passes for one.
 */
export async function writeExportFile(database: Database, file: string): Promise<Record<string, number>> {
  if (fs.existsSync(file)) throw new Error(`${file} exists: an export never overwrites a file, give it a new name`);
  const partial = `${file}.partial`;
  const stream = fs.createWriteStream(partial, { encoding: 'utf8' });
  try {
    const counts = await exportDatabase(database, fileSink(stream));
    await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    fs.linkSync(partial, file);
    fs.rmSync(partial);
    return counts;
  } catch (error) {
    stream.destroy();
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

/** Whether the file is an export (its first key is `orgsec_export`) rather than a world file. */
export function isExportFile(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(256);
    const read = fs.readSync(fd, head, 0, head.length, 0);
    return /^\s*\{\s*"orgsec_export"\s*:/.test(head.subarray(0, read).toString('utf8'));
  } finally {
    fs.closeSync(fd);
  }
}

type Mode = 'start' | 'topKey' | 'top' | 'tables' | 'tableKey' | 'table' | 'field' | 'columns' | 'rowsStart' | 'rows' | 'row' | 'end';

/** Follows an export's tokens: the header and counts assembled, each row handed over as it completes. */
class ExportWalker {
  header: ExportHeader | undefined;
  readonly batches: RestoreBatch[] = [];
  private mode: Mode = 'start';
  private key = '';
  private table = '';
  private columns: string[] | undefined;
  private pending: unknown[][] = [];
  private readonly asm;

  constructor(streamJson: StreamJson) {
    this.asm = streamJson.assembler();
  }

  get isDone(): boolean {
    return this.mode === 'end';
  }

  consume(token: Token): void {
    const expect = (name: string, then: Mode) => {
      if (token.name !== name) throw new Error(`not an orgsec export: unexpected ${token.name} ${this.where()}`);
      this.mode = then;
    };
    switch (this.mode) {
      case 'start': return expect('startObject', 'topKey');
      case 'topKey':
        if (token.name === 'endObject') { this.mode = 'end'; return; }
        this.key = String(token.value);
        if (!['orgsec_export', 'tables', 'counts'].includes(this.key)) throw new Error(`not an orgsec export: unknown key "${this.key}"`);
        this.mode = this.key === 'tables' ? 'tables' : 'top';
        return;
      case 'top': return this.assemble(token, (value) => { if (this.key === 'orgsec_export') this.header = value as ExportHeader; this.mode = 'topKey'; }, 'top');
      case 'tables': return expect('startObject', 'tableKey');
      case 'tableKey':
        if (token.name === 'endObject') { this.mode = 'topKey'; return; }
        this.table = String(token.value);
        this.columns = undefined;
        this.mode = 'table';
        return;
      case 'table': return expect('startObject', 'field');
      case 'field':
        if (token.name === 'endObject') { this.mode = 'tableKey'; return; }
        if (token.value === 'columns') { this.mode = 'columns'; return; }
        if (token.value === 'rows') {
          if (this.columns === undefined) throw new Error(`not an orgsec export: the table ${this.table} has rows before its columns`);
          this.mode = 'rowsStart';
          return;
        }
        throw new Error(`not an orgsec export: unknown key "${String(token.value)}" ${this.where()}`);
      case 'columns': return this.assemble(token, (value) => {
        if (!Array.isArray(value) || !value.every((c) => typeof c === 'string')) throw new Error(`not an orgsec export: the columns ${this.where()} are not a list of names`);
        this.columns = value;
        this.mode = 'field';
      }, 'columns');
      case 'rowsStart': return expect('startArray', 'rows');
      case 'rows':
        if (token.name === 'endArray') {
          this.flush();
          this.mode = 'field';
          return;
        }
        return this.assemble(token, (value) => this.take(value), 'row');
      case 'row': return this.assemble(token, (value) => this.take(value), 'row');
      case 'end': return;
    }
  }

  private take(value: unknown): void {
    this.pending.push(value as unknown[]);
    if (this.pending.length >= BATCH_ROWS) this.flush();
    this.mode = 'rows';
  }

  private flush(): void {
    if (this.pending.length > 0) this.batches.push({ table: this.table, columns: this.columns!, rows: this.pending });
    this.pending = [];
  }

  private where(): string {
    return this.table ? `in table ${this.table}` : 'at the top level';
  }

  private assemble(token: Token, done: (value: unknown) => void, mode: Mode): void {
    this.asm.consume(token);
    if (this.asm.done) done(this.asm.current);
    else this.mode = mode;
  }
}

/** Opens an export for the restore: its header, and its rows in batches (read again if asked again). */
export async function openExportFile(file: string): Promise<{ header: ExportHeader; batches(): AsyncIterable<RestoreBatch> }> {
  const streamJson = await loadStreamJson();
  const first = new ExportWalker(streamJson);
  for await (const _chunk of walkTokens(file, streamJson, (token) => first.consume(token), () => first.header !== undefined));
  if (first.header === undefined) throw new Error(`${file} has no orgsec_export header`);
  return {
    header: first.header,
    async *batches() {
      const walker = new ExportWalker(streamJson);
      for await (const _chunk of walkTokens(file, streamJson, (token) => walker.consume(token))) yield* walker.batches.splice(0);
      if (!walker.isDone) throw new Error('the export ends early: the file is cut short');
    },
  };
}
