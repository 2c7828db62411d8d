import http from 'node:http';
import net from 'node:net';
import { RequestsInFlight } from '../../src/http/requests-in-flight';
import { BURST_SECONDS, CONTENDED_WINDOW_MS, SnapshotShare } from '../../src/modules/dependency-graph/snapshot-share';

// The share of snapshot work (src/modules/dependency-graph/snapshot-share.ts) on a clock the
// test moves: free while nobody else is answered, kept to its share while others are, and
// the requests counted through RequestsInFlight's own listener with Node's request objects.

let now = 0;
const clock = () => now;

/** A request RequestsInFlight counts until `end()` (its response finishes). */
function answer(requests: RequestsInFlight, { snapshotWork = false } = {}): { end(): void } {
  const req = new http.IncomingMessage(new net.Socket());
  const res = new http.ServerResponse(req);
  requests.track((incoming) => { if (snapshotWork) requests.exclude(incoming); })(req, res);
  return { end: () => res.emit('finish') };
}

describe('the share of snapshot work', () => {
  beforeEach(() => { now = 1_000_000; });

  test('with nobody else answered, snapshot work never waits: the bucket empties as fast as time passes', () => {
    const requests = new RequestsInFlight(clock);
    const share = new SnapshotShare(requests, 0.15, clock);
    for (let i = 0; i < 100; i++) {
      const snapshot = answer(requests, { snapshotWork: true });
      now += 60;
      share.charge(0.06);
      snapshot.end();
      expect(share.waitSeconds()).toBe(0);
    }
    expect(requests.current).toBe(0);
    expect(share.contended).toBe(false);
  });

  test('while others are answered, snapshot work beyond the burst waits its excess divided by the share', () => {
    const requests = new RequestsInFlight(clock);
    const share = new SnapshotShare(requests, 0.2, clock);
    const reader = answer(requests);
    expect(share.contended).toBe(true);
    share.charge(BURST_SECONDS);
    expect(share.waitSeconds()).toBe(0);
    share.charge(0.1);
    expect(share.waitSeconds()).toBeCloseTo(0.1 / 0.2, 9);
    // Half a second later the share has drained 0.1 s of work.
    now += 500;
    expect(share.waitSeconds()).toBeCloseTo(0, 9);
    // The wait a further 0.3 s of work would have.
    expect(share.waitSeconds(0.3)).toBeCloseTo(0.3 / 0.2, 9);
    reader.end();
  });

  test('a reader answered a moment ago still counts; after the window the rest drains at full speed', () => {
    const requests = new RequestsInFlight(clock);
    const share = new SnapshotShare(requests, 0.1, clock);
    const reader = answer(requests);
    share.charge(BURST_SECONDS + 1);
    reader.end();
    now += CONTENDED_WINDOW_MS / 2;
    expect(share.contended).toBe(true);
    now += CONTENDED_WINDOW_MS;
    expect(share.contended).toBe(false);
    expect(share.waitSeconds()).toBe(0);
    // A reader again: what is left is CONTENDED_WINDOW_MS drained at 10%, then 50 ms at full speed.
    const next = answer(requests);
    expect(share.waitSeconds()).toBeCloseTo((1 - 0.1 * CONTENDED_WINDOW_MS / 1000 - 0.05) / 0.1, 6);
    now += 2_000;
    expect(share.waitSeconds()).toBeCloseTo((1 - 0.1 * CONTENDED_WINDOW_MS / 1000 - 0.05 - 0.2) / 0.1, 6);
    next.end();
  });

  test('while snapshot work that began beside others runs, what was owed drains at the share, not as if they had gone', () => {
    const requests = new RequestsInFlight(clock);
    const share = new SnapshotShare(requests, 0.1, clock);
    const reader = answer(requests);
    share.charge(0.5);
    reader.end();
    // 300 ms of work at once, during which no reader could be answered (one thread): they look idle, and are not.
    now += 300;
    share.charge(0.3);
    answer(requests);
    expect(share.waitSeconds()).toBeCloseTo((0.5 - 0.1 * 0.3 + 0.3 - BURST_SECONDS) / 0.1, 6);
  });

  test('snapshot requests are not among the others, and each is counted out once', () => {
    const requests = new RequestsInFlight(clock);
    const snapshot = answer(requests, { snapshotWork: true });
    const reader = answer(requests);
    expect([requests.current, requests.others]).toEqual([2, 1]);
    snapshot.end();
    snapshot.end();
    expect([requests.current, requests.others]).toEqual([1, 1]);
    reader.end();
    expect([requests.current, requests.others]).toEqual([0, 0]);
    now += 10;
    expect(requests.othersIdleMs()).toBe(10);
  });
});
