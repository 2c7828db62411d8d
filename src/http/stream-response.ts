import { once } from 'node:events';
import type { Response } from 'express';

/**
 * Answers 200 with `chunks` written as they come, waiting for the socket to drain, so memory
 * holds a chunk whatever the answer's size; a client that goes away stops the walk. Everything
 * that can be refused (the caller, the query) must be checked before: once the first byte is
 * out, a failure can only cut the answer short.
 */
export async function streamResponse(res: Response, contentType: string, chunks: AsyncIterable<string>): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.flushHeaders();
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) return;
      if (chunk !== '' && !res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}
