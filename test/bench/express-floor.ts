import express from 'express';

// The cheapest Express route: one app, one route, a tiny constant JSON. What a 304 from
// orgsec is held against, since a 304 has no body to send.
const port = Number(process.argv[2]);
const app = express();
app.get('/', (_req, res) => {
  res.json({ ok: true });
});
app.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
