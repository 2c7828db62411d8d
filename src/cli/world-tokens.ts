import fs from 'node:fs';

// stream-json's tokenizer and assembler, and a walker over a world file's tokens: every
// top-level section but the alerts assembled whole, each alert handed over as it completes.

export interface Token {
  name: string;
  value?: unknown;
}

interface Assembler {
  consume(token: Token): unknown;
  done: boolean;
  current: unknown;
}

export interface StreamJson {
  /** A tokenizer: text in, tokens out; `end` flushes. */
  tokenizer(): { write(text: string): Token[]; end(): Token[] };
  assembler(): Assembler;
}

export async function loadStreamJson(): Promise<StreamJson> {
  // One after the other: jest's module linker loses track of a module two imports share.
  const { jsonParser } = await import('stream-json/core/parser.js');
  const { Assembler } = await import('stream-json/core/assembler.js');
  const { none } = await import('stream-chain/defs.js');
  const tokensOf = (out: unknown): Token[] => (out === none ? [] : (out as { values: Token[] }).values);
  return {
    tokenizer() {
      // Packed values only: a string or number arrives as one token. `none` flushes it (stream-chain's end of input).
      const parse = jsonParser({ streamValues: false }) as (chunk: string | typeof none) => unknown;
      return { write: (text) => tokensOf(parse(text)), end: () => tokensOf(parse(none)) };
    },
    assembler: () => new Assembler(),
  };
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Feeds a JSON file's tokens to `consume` a chunk at a time, pausing (yielding) after each, so
 * what the tokens completed is handled before more is read; stops early once `isEnough()`.
 */
export async function* walkTokens(file: string, streamJson: StreamJson, consume: (token: Token) => void, isEnough: () => boolean = () => false): AsyncGenerator<void> {
  const tokenizer = streamJson.tokenizer();
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: CHUNK_BYTES });
  try {
    for await (const chunk of stream) {
      for (const token of tokenizer.write(chunk as string)) consume(token);
      yield;
      if (isEnough()) return;
    }
    for (const token of tokenizer.end()) consume(token);
    yield;
  } finally {
    stream.destroy();
  }
}

/**
 * A copy of an assembled value whose strings share no memory with the file's text. The
 * tokenizer's strings are slices of its 64 KB chunks, a long one a chain of pieces joined at
 * every escape: kept for the whole load, the sections (20,000 advisories of 1–3 KB markdown)
 * held ~300 MB that way, against ~60 MB as plain strings. A section that is an array is copied
 * element by element as each completes, so its slices never pile up (they did, and the heap
 * limit V8 set at that moment let a load grow to 1.5 GB). Alerts are short-lived: not copied.
 */
function detached(value: unknown): unknown {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

type Mode = 'start' | 'key' | 'value' | 'section' | 'elements' | 'element' | 'alerts' | 'alert' | 'skip' | 'whole' | 'end';

/**
 * Follows the top level of a world file. With `onAlert`, hands over each alert of the
 * `alertsOccurrence`-th "alerts" array (the last one counts, as with JSON.parse); without it,
 * only counts them.
 */
export class WorldTokenWalker {
  readonly sections: Record<string, unknown> = {};
  /** The whole document, when it is not an object (the schema names the problem). */
  whole: unknown;
  isObject = false;
  alertCount = 0;
  alertsOccurrences = 0;
  /** Which "alerts" key is an array that holds the alerts; 0 when the last one is not an array. */
  alertsArrayOccurrence = 0;
  private mode: Mode = 'start';
  private key = '';
  private skipDepth = 0;
  /** Where a skipped value returns to. */
  private afterSkip: Mode = 'alerts';
  private readonly asm: Assembler;

  constructor(streamJson: StreamJson, private readonly onAlert?: { occurrence: number; take(value: unknown): void }) {
    this.asm = streamJson.assembler();
  }

  get isDone(): boolean {
    return this.mode === 'end';
  }

  /** True once the alerts wanted were all handed over: the rest of the file is not needed. */
  get hasAllAlerts(): boolean {
    return this.onAlert !== undefined && this.alertsOccurrences >= this.onAlert.occurrence && this.mode !== 'alerts' && this.mode !== 'alert';
  }

  consume(token: Token): void {
    switch (this.mode) {
      case 'start':
        if (token.name === 'startObject') {
          this.isObject = true;
          this.mode = 'key';
        } else this.assemble(token, 'whole');
        return;
      case 'whole':
        this.assemble(token, 'whole');
        return;
      case 'key':
        if (token.name === 'keyValue') {
          this.key = String(token.value);
          this.mode = 'value';
        } else if (token.name === 'endObject') this.mode = 'end';
        return;
      case 'value':
        if (this.key === 'alerts') this.alertsOccurrences++;
        if (this.key === 'alerts' && token.name === 'startArray') {
          delete this.sections.alerts;
          this.alertCount = 0;
          this.alertsArrayOccurrence = this.alertsOccurrences;
          this.mode = 'alerts';
          return;
        }
        if (this.key === 'alerts') this.alertsArrayOccurrence = 0;
        // Handing over alerts, the walker has had the sections already (the first pass).
        if (this.onAlert !== undefined) {
          this.skip(token, 'key');
          return;
        }
        if (token.name === 'startArray') {
          this.sections[this.key] = [];
          this.mode = 'elements';
          return;
        }
        this.assemble(token, 'section');
        return;
      case 'section':
        this.assemble(token, 'section');
        return;
      case 'elements':
        if (token.name === 'endArray') this.mode = 'key';
        else this.assemble(token, 'element');
        return;
      case 'element':
        this.assemble(token, 'element');
        return;
      case 'alerts':
        if (token.name === 'endArray') {
          this.mode = 'key';
          return;
        }
        this.alertCount++;
        if (this.isWanted()) this.assemble(token, 'alert');
        else this.skip(token, 'alerts');
        return;
      case 'alert':
        this.assemble(token, 'alert');
        return;
      case 'skip':
        if (token.name === 'startObject' || token.name === 'startArray') this.skipDepth++;
        else if ((token.name === 'endObject' || token.name === 'endArray') && --this.skipDepth === 0) this.mode = this.afterSkip;
        return;
      case 'end':
        return;
    }
  }

  /** Passes over the value `token` begins, then goes on in `then`. */
  private skip(token: Token, then: Mode): void {
    if (token.name === 'startObject' || token.name === 'startArray') {
      this.skipDepth = 1;
      this.afterSkip = then;
      this.mode = 'skip';
    } else this.mode = then;
  }

  private isWanted(): boolean {
    return this.onAlert !== undefined && this.onAlert.occurrence === this.alertsOccurrences;
  }

  /** Feeds the assembler; a completed value goes where the mode says. */
  private assemble(token: Token, mode: 'whole' | 'section' | 'element' | 'alert'): void {
    this.asm.consume(token);
    if (!this.asm.done) {
      this.mode = mode;
      return;
    }
    const value = this.asm.current;
    if (mode === 'whole') {
      this.whole = detached(value);
      this.mode = 'end';
    } else if (mode === 'section') {
      this.sections[this.key] = detached(value);
      this.mode = 'key';
    } else if (mode === 'element') {
      (this.sections[this.key] as unknown[]).push(detached(value));
      this.mode = 'elements';
    } else {
      this.onAlert!.take(value);
      this.mode = 'alerts';
    }
  }
}
