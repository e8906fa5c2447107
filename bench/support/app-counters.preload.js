'use strict';
/**
 * Loaded into an app by the orders bench (`--require`, through APP_NODE_ARGS): counts what the app
 * sends, so a bench can say how many round trips an order costs each process.
 *
 * - `statements`: calls of pg's `Client.prototype.query` (every statement TypeORM or a repository
 *   sends, BEGIN and COMMIT included), with the count per statement text (first 120 characters);
 * - `natsPublishes` / `natsRequests`: calls of the NATS connection's `publish` and `request` (the
 *   Nest transport's requests and replies are publishes; a JetStream publish is a request);
 * - `cpu`: `process.cpuUsage()` (µs), so the CPU is the app's own, without a profiler's.
 *
 * The app answers them as JSON on the unix socket `$BENCH_COUNTERS_DIR/<pid>.sock` (not on a
 * signal: the services' shutdown hooks take every signal). Nothing here changes what the app does.
 */
const { createServer } = require('node:http');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const dir = process.env.BENCH_COUNTERS_DIR;
const counters = { statements: 0, natsPublishes: 0, natsRequests: 0, byStatement: {} };

function wrap(prototype, name, count) {
  const original = prototype[name];
  prototype[name] = function counted(...args) {
    count(args);
    return original.apply(this, args);
  };
}

const pg = require(join(ROOT, 'node_modules', 'pg'));
wrap(pg.Client.prototype, 'query', ([config]) => {
  counters.statements += 1;
  const text = typeof config === 'string' ? config : (config && config.text) || '?';
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 120);
  counters.byStatement[key] = (counters.byStatement[key] || 0) + 1;
});

const nats = require(join(ROOT, 'node_modules', '@nats-io', 'nats-core', 'lib', 'nats.js'));
wrap(nats.NatsConnectionImpl.prototype, 'publish', () => {
  counters.natsPublishes += 1;
});
wrap(nats.NatsConnectionImpl.prototype, 'request', () => {
  counters.natsRequests += 1;
});

if (dir) {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ ...counters, cpu: process.cpuUsage() }));
  });
  server.listen(join(dir, `${process.pid}.sock`));
  server.unref();
}
