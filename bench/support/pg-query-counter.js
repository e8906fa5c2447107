// Preloaded into an app by a bench (NODE_OPTIONS=--require …, PG_QUERY_COUNT_FILE=path): counts
// the statements the app sends to Postgres through `pg` (every Client#query, pooled ones too) and
// writes the running count to PG_QUERY_COUNT_FILE every 100 ms, for the bench to read as figures.
const { writeFileSync } = require('node:fs');
const pg = require('pg');

const file = process.env.PG_QUERY_COUNT_FILE;
if (file) {
  let count = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function countedQuery(...args) {
    count++;
    return query.apply(this, args);
  };
  let written = -1;
  const write = () => {
    if (written === count) return;
    written = count;
    writeFileSync(file, String(count));
  };
  write();
  setInterval(write, 100).unref();
}
