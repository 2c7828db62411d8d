// The alert numbers a load inserted, per repository, a bit each: into a table that was empty
// when the load began, these are the only stored alerts a declaration can meet, so a batch
// none of whose numbers is here needs no look-up (2.3 s of a million-alert load: the look-up
// by number, one statement a batch, answered nothing). Numbers past MAX_TRACKED are not kept:
// they are looked up as before.

const MAX_TRACKED = 1 << 20;

export class NumbersInserted {
  private readonly bits = new Map<number, Uint8Array>();

  add(repoId: number, number: number): void {
    if (number > MAX_TRACKED) return;
    let bits = this.bits.get(repoId);
    const byte = number >> 3;
    if (bits === undefined || byte >= bits.length) {
      const grown = new Uint8Array(Math.max(16, (byte + 1) * 2));
      if (bits) grown.set(bits);
      this.bits.set(repoId, (bits = grown));
    }
    bits[byte]! |= 1 << (number & 7);
  }

  /** Whether the number may be stored: inserted by this load, or too large to be kept. */
  mayHold(repoId: number, number: number): boolean {
    if (number > MAX_TRACKED) return true;
    const bits = this.bits.get(repoId);
    const byte = number >> 3;
    return bits !== undefined && byte < bits.length && (bits[byte]! & (1 << (number & 7))) !== 0;
  }
}
