import { sharedReads } from '../../src/database/data-version';

// PostgreSQL's data-version reads are shared by concurrent requests (src/database/data-version.ts):
// a caller must never be answered by a read sent before it called, which may predate a write it
// has to see.

/** Reads that settle when the test says so, numbered in the order they were sent. */
function controlledReads() {
  const sent: Array<{ resolve: (n: number) => void; reject: (e: Error) => void }> = [];
  const reads = sharedReads(() => new Promise<number>((resolve, reject) => sent.push({ resolve, reject })));
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { reads, sent, tick };
}

it('sends a read at once when none is in flight', async () => {
  const { reads, sent } = controlledReads();
  const first = reads.join();
  expect(sent).toHaveLength(1);
  sent[0]!.resolve(1);
  await expect(first).resolves.toBe(1);
});

it('answers callers that arrive during a read with the next read, sent after it, shared by all of them', async () => {
  const { reads, sent, tick } = controlledReads();
  const first = reads.join();
  const second = reads.join();
  const third = reads.join();
  expect(sent).toHaveLength(1); // the next read waits for the one in flight
  sent[0]!.resolve(1);
  await tick();
  expect(sent).toHaveLength(2);
  const fourth = reads.join(); // arrives while the second read is in flight: the third read is its
  sent[1]!.resolve(2);
  await tick();
  expect(sent).toHaveLength(3);
  sent[2]!.resolve(3);
  await expect(Promise.all([first, second, third, fourth])).resolves.toEqual([1, 2, 2, 3]);
});

it('gives a failed read to its own callers only, and still sends the next', async () => {
  const { reads, sent, tick } = controlledReads();
  const first = reads.join();
  const second = reads.join();
  sent[0]!.reject(new Error('connection ended'));
  await expect(first).rejects.toThrow('connection ended');
  await tick();
  sent[1]!.resolve(7);
  await expect(second).resolves.toBe(7);
});

it('is idle once no read is in flight or waiting', async () => {
  const { reads, sent, tick } = controlledReads();
  let idle = false;
  void reads.join();
  void reads.join();
  const settledIdle = reads.idle().then(() => (idle = true));
  sent[0]!.resolve(1);
  await tick();
  expect(idle).toBe(false); // the shared second read was still to come
  sent[1]!.resolve(2);
  await settledIdle;
  expect(idle).toBe(true);
});
