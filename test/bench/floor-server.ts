import fs from 'node:fs';
import http from 'node:http';

// The floor: raw node:http sending pre-serialized bytes, nothing computed per request.
// `floor-server.js FILE PORT` sends the file's bytes; `floor-server.js --tiny PORT` a tiny constant JSON;
// `floor-server.js --busy-ms=N FILE PORT` spends N ms of CPU on each request before sending the
// bytes (a design bound: what the tail of any node:http server costing that much looks like).
const args = process.argv.slice(2);
const busy = args[0]?.startsWith('--busy-ms=') ? Number(args.shift()!.slice('--busy-ms='.length)) : 0;
const [source, port] = args;
const body = source === '--tiny' ? Buffer.from('{"ok":true}') : fs.readFileSync(source!);
http
  .createServer((_req, res) => {
    if (busy > 0) spin(busy);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));

/** Keeps the core busy for `ms` milliseconds, as a request's own work would. */
function spin(ms: number): void {
  const until = process.hrtime.bigint() + BigInt(Math.round(ms * 1e6));
  while (process.hrtime.bigint() < until);
}
