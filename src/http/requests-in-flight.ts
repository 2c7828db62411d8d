import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * How many requests this instance is answering now, counted from arrival until the response
 * is sent or the connection closes: what the snapshot queue reads to know whether writes
 * would make someone wait (src/modules/dependency-graph/snapshot-queue.ts).
 */
export class RequestsInFlight {
  private count = 0;

  get current(): number {
    return this.count;
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
      };
      res.once('finish', end);
      res.once('close', end);
      listener(req, res);
    };
  }
}
