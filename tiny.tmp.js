const express = require('express');
const app = express();
app.get('/', (_req, res) => { res.json({ ok: true }); });
app.listen(Number(process.argv[2]), '127.0.0.1');
