import fs from 'node:fs';
import http from 'node:http';

// The floor: raw node:http sending pre-serialized bytes, nothing computed per request.
const [file, port] = process.argv.slice(2);
const body = fs.readFileSync(file!);
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
