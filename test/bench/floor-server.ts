import fs from 'node:fs';
import http from 'node:http';

// The floor: raw node:http sending pre-serialized bytes, nothing computed per request.
// `floor-server.js FILE PORT` sends the file's bytes; `floor-server.js --tiny PORT` a tiny constant JSON.
const [source, port] = process.argv.slice(2);
const body = source === '--tiny' ? Buffer.from('{"ok":true}') : fs.readFileSync(source!);
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
