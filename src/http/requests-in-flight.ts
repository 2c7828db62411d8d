import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

const EXCLUDED = Symbol('orgsec.requestExcluded');
type Counted = IncomingMessage & { [EXCLUDED]?: boolean };

/**
 * How many requests this instance is answering now, counted from arrival until the response
 * is sent or the connection closes, and when one other than snapshot work was last being
 * answered: what the snapshot queue reads to know whether snapshots would make someone wait
 * (src/modules/dependency-graph/snapshot-share.ts).
 */
export class RequestsInFlight {
  private count = 0;
  private excluded = 0;
  private lastOtherAt = Number.NEGATIVE_INFINITY;

  /** `clock` in milliseconds, performance.now()'s (tests give their own). */
  constructor(private readonly clock: () => number = () => performance.now()) {}

  get current(): number {
    return this.count;
  }

  /** Requests being answered now that are not snapshot work (see exclude). */
  get others(): number {
    return this.count - this.excluded;
  }

  /**
   * Milliseconds since a request other than snapshot work was being answered: 0 while one is.
   * On one thread a reader waiting in a socket buffer is not counted yet, so callers look at a
   * window of this, not at one instant.
   */
  othersIdleMs(now: number = this.clock()): number {
    return this.others > 0 ? 0 : now - this.lastOtherAt;
  }

  /** This request is snapshot work: it is not one of the others snapshots must not make wait. */
  exclude(req: IncomingMessage): void {
    const counted = req as Counted;
    if (counted[EXCLUDED]) return;
    counted[EXCLUDED] = true;
    this.excluded++;
  }

  /** The listener, with every request it is given counted. */
  track(listener: RequestListener): RequestListener {
    return (req: IncomingMessage, res: ServerResponse) => {
      this.count++;
      let done = false;
      const end = () => {
        if (done) return;
        done = true;
        this.count--;
        if ((req as Counted)[EXCLUDED]) this.excluded--;
        else this.lastOtherAt = this.clock();
      };
      res.once('finish', end);
      res.once('close', end);
      listener(req, res);
    };
  }
}
