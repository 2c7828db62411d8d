import net from 'node:net';
import { sharedDatabase, startInstance, type Instance, type SharedDatabase } from '../helpers/instances';

// A real `orgsec serve` process receiving SIGTERM while a request is still arriving:
// the request completes, new connections are refused, and the process exits 0.

let db: SharedDatabase;
let instance: Instance;
beforeAll(async () => {
  db = await sharedDatabase();
  instance = await startInstance(db.url);
}, 60_000);
afterAll(async () => {
  await instance?.stop();
  await db?.drop();
});

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads one HTTP/1.1 answer with a Content-Length: status and body. */
function readResponse(socket: net.Socket): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const headers = received.subarray(0, end).toString();
      const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.off('data', onData);
      resolve({ status: Number(headers.split(' ')[1]), headers, body: received.subarray(end + 4, end + 4 + length).toString() });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('close', () => reject(new Error(`connection closed after ${received.length} bytes: ${received.toString()}`)));
  });
}

async function isRefused(port: number): Promise<boolean> {
  try {
    (await connect(port)).destroy();
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
  }
}

it('on SIGTERM, finishes the request in flight, refuses new connections, and exits 0', async () => {
  const port = Number(new URL(instance.url).port);
  const exited = new Promise<number | null>((resolve) => instance.process.once('exit', (code) => resolve(code)));
  const body = JSON.stringify({ query: 'query ShutdownProbe { viewer { login } }' });
  const socket = await connect(port);
  const answer = readResponse(socket);
  // Headers and half of the body: the request is in flight when the signal arrives.
  socket.write(`POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
  socket.write(body.slice(0, 10));
  await new Promise((resolve) => setTimeout(resolve, 200));

  instance.process.kill('SIGTERM');
  const deadline = Date.now() + 3_000;
  while (!(await isRefused(port))) {
    if (Date.now() > deadline) throw new Error('still accepting connections 3 s after SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(instance.process.exitCode).toBeNull(); // still draining the request

  socket.write(body.slice(10));
  const response = await answer;
  const answeredAt = Date.now();
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body)).toEqual({ data: { viewer: null } });
  expect(await exited).toBe(0);
  // The drained keep-alive connection is closed at once, not after the 5 s grace period.
  expect(Date.now() - answeredAt).toBeLessThan(2_000);
  socket.destroy();
}, 30_000);
