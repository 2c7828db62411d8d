import crypto from 'node:crypto';

// Documents whose shared parts are serialized once: a serializer puts JsonFragments where
// those parts go, and toJsonParts writes the document around them without copying them.

/** JSON already serialized, spliced into a larger document as is. */
export class JsonFragment {
  private constructor(readonly bytes: Buffer) {}

  /**
   * The fragment of `value`. Its bytes get their own memory: a small Buffer.from is a slice
   * of a shared 8 KiB slab, which a single cached slice would hold on to whole.
   */
  static of(value: unknown): JsonFragment {
    return new JsonFragment(ownBytes(JSON.stringify(value)));
  }

  /** The fragment of text that is JSON already (as stored by a serializer): taken as it is. */
  static ofJson(text: string): JsonFragment {
    return new JsonFragment(ownBytes(text));
  }
}

// What stands for a fragment while the document is stringified: no stored text equals it.
const MARK = `\u0000json-fragment:${crypto.randomUUID()}`;
const QUOTED_MARK = JSON.stringify(MARK);

/**
 * The JSON of `value` (as JSON.stringify writes it) in parts: the document's own bytes at
 * even positions, each JsonFragment's bytes, shared, at odd ones.
 */
export function toJsonParts(value: unknown): Buffer[] {
  const fragments: JsonFragment[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof JsonFragment)) return v;
    fragments.push(v);
    return MARK;
  });
  const own = text.split(QUOTED_MARK);
  // The document's own pieces share one allocation of their own: one per document, not per piece.
  const bytes = ownBytes(own.join(''));
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [i, piece] of own.entries()) {
    const length = Buffer.byteLength(piece, 'utf8');
    parts.push(bytes.subarray(offset, offset + length));
    offset += length;
    const fragment = fragments[i];
    if (fragment) parts.push(fragment.bytes);
  }
  return parts;
}

function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 'utf8');
  return bytes;
}
