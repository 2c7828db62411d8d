// One process doing read-then-write transactions through orgsec's own withTransaction
// (the built dist) on a SQLite file: read a counter, pause so that another process could
// come between, write it back plus one. Prints what it saw as JSON.
//   node read-then-write.worker.js <database file> <counter login> <transactions>
// It prints `ready` once connected and starts when it reads a line on stdin, so that
// several workers start together however long each took to load.
const path = require('node:path');

const database = path.join(__dirname, '..', '..', 'dist', 'src', 'database');
const { openDatabase } = require(path.join(database, 'connection.js'));
const { withTransaction } = require(path.join(database, 'transaction.js'));

const [file, login, transactions] = process.argv.slice(2);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const { knex } = openDatabase(file);
  const errors = [];
  knex.on('query-error', (error) => errors.push(error.code ?? String(error)));
  await knex('accounts').where('login_key', login).first('id'); // connect before the start line
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  let attempts = 0;
  const written = [];
  for (let i = 0; i < Number(transactions); i++) {
    written.push(await withTransaction(knex, async (trx) => {
      attempts += 1;
      const { name } = await trx('accounts').where('login_key', login).first('name');
      await pause(2);
      const next = Number(name) + 1;
      await trx('accounts').where('login_key', login).update({ name: String(next) });
      return next;
    }));
    await pause(3); // a request's worth of gap, as between a server's transactions
  }
  await knex.destroy();
  process.stdout.write(JSON.stringify({ attempts, errors, written }));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack));
  process.exit(1);
});
