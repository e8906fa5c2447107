import { Client } from 'pg';
import { FaultSystem, TERMINAL_STATES, type HttpAnswer } from './support/fault-system';
import { sleep, until } from './support/wait';

jest.setTimeout(120_000);

const IN_FLIGHT = 20;
/** How long the requests stay held after the signal: the drain must wait for them, not cut them off. */
const HELD_AFTER_SIGNAL_MS = 1_500;

describe('graceful shutdown: SIGTERM to the order service while order requests are in flight', () => {
  // The gateway waits 5 s for the order service, the client longer; the drain decides the rest.
  const system = new FaultSystem({ requestTimeoutMs: 5_000, ackWaitMs: 5_000, clientTimeoutMs: 20_000 });

  beforeAll(async () => {
    await system.start();
  });

  afterAll(async () => {
    await system.stop();
  });

  it(`answers all ${IN_FLIGHT} POST /api/marketplace-orders/ in flight at the signal with 201, stores each order, and exits only after them`, async () => {
    // Holding a SHARE lock on the orders table keeps every creation inside the service (its INSERT
    // waits, or it waits for a pool connection behind those that do) until we let go.
    const blocker = new Client({ connectionString: system.databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE marketplace.orders IN SHARE MODE');
    let replies: HttpAnswer[];
    let exitStatus: string | undefined;
    let exitedAfterMs = Number.NaN;
    let serviceLog: string | undefined;
    try {
      const requests = Promise.all(
        Array.from({ length: IN_FLIGHT }, (_, i) => system.placeOrder(`drained-${i}`)),
      );
      const held = await until(
        async () => (await waitingOnTheLock(blocker, system.databaseName)) > 0,
        10_000,
      );
      expect(held).toBeDefined();
      await sleep(300); // the rest of the 20 reach the service: they were sent together

      const orderService = system.app('order-service');
      const signalled = Date.now();
      const exited = orderService.stop('SIGTERM').then(() => (exitedAfterMs = Date.now() - signalled));
      await sleep(HELD_AFTER_SIGNAL_MS);
      await blocker.query('COMMIT');
      replies = await requests;
      await exited;
      exitStatus = orderService.exitStatus;
      serviceLog = orderService.tail(12);
    } finally {
      await blocker.end();
    }

    const uuidOf = (reply: HttpAnswer) => (reply.body as { uuid?: string } | undefined)?.uuid;
    const answers = replies.map((reply) =>
      reply.status === 201 && uuidOf(reply)
        ? 'ok'
        : reply.status === 0
          ? `no answer: ${reply.error}`
          : `${reply.status}: ${JSON.stringify(reply.body)}`,
    );
    const uuids = replies.flatMap((reply) => (reply.status === 201 && uuidOf(reply) ? [uuidOf(reply)!] : []));
    const stored = await system.orderStates(uuids);
    // Nest's shutdown hook re-raises the signal once closed, so a drained process ends by SIGTERM.
    const exitedCleanly = ['exit code 0', 'SIGTERM'].includes(exitStatus ?? '');
    const answered = new Map<string, number>();
    for (const answer of answers) answered.set(answer, (answered.get(answer) ?? 0) + 1);
    const problems = [
      ...[...answered]
        .filter(([answer]) => answer !== 'ok')
        .map(([answer, n]) => `${n} of ${IN_FLIGHT}: ${answer}`),
      stored.size === IN_FLIGHT ? '' : `${stored.size} of ${IN_FLIGHT} orders stored`,
      exitedCleanly ? '' : `ended by ${exitStatus}`,
      exitedAfterMs >= HELD_AFTER_SIGNAL_MS
        ? ''
        : `exited ${exitedAfterMs} ms after the signal, before the held requests were let go`,
    ].filter(Boolean);
    if (problems.length > 0)
      problems.push(
        `order service: ${exitStatus} ${exitedAfterMs} ms after the signal; last lines:\n${serviceLog}`,
      );
    expect(problems).toEqual([]);

    // What was committed during the drain goes on once the service is back: each order ends done.
    await system.startApp('order-service');
    const ended = await until(async () => {
      const states = await system.orderStates(uuids);
      return uuids.every((uuid) => TERMINAL_STATES.includes(states.get(uuid) ?? ''));
    }, 60_000);
    expect(ended).toBeDefined();
    const states = await system.orderStates(uuids);
    expect(uuids.filter((uuid) => states.get(uuid) !== 'done')).toEqual([]);
  });
});

/** Backends of our database that wait for a lock: the held order creations. */
async function waitingOnTheLock(client: Client, database: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
    [database],
  );
  return rows[0].n;
}
