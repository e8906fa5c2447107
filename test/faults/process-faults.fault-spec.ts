import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { jetstream } from '@nats-io/jetstream';
import { OrderErredEvent } from '@app/contracts';
import { buildEnvelope } from '@app/messaging/jetstream/build-envelope';
import { publishEvent } from '@app/messaging/jetstream/publish-event';
import type { AppName } from '../support/app-process';
import { OrderLoad } from '../support/order-load';
import { FaultSystem, APPS, FAULT_ORDER_PREFIX, TERMINAL_STATES } from './support/fault-system';
import { formatFaultTable, type FaultRow } from './support/fault-table';
import { auditOrders, describeProblems, type OrderAudit } from './support/order-audit';
import { envNumber, sleep, until } from './support/wait';

// Knobs for quick local runs; the defaults are what CI runs.
// Every order is a VM deployed on vcsim: the adapter finishes about 4 a second on this 2-core
// machine, so a steady 3 a second leaves the recovery, not a growing backlog, to be measured.
const LOAD_PER_SECOND = envNumber('FAULT_LOAD_PER_SECOND', 3);
const WARMUP_MS = envNumber('FAULT_WARMUP_MS', 3_000);
const DOWNTIME_MS = envNumber('FAULT_DOWNTIME_MS', 3_000);
// Sent at once right before each fault, so that it strikes orders in every stage of their way.
const BURST = envNumber('FAULT_BURST', 20);
const RECOVERY_LIMIT_MS = envNumber('FAULT_RECOVERY_LIMIT_MS', 30_000);
const ACK_WAIT_MS = 5_000;
// A substring of fault names to run only those (local runs); all of them by default.
const ONLY = process.env.FAULT_ONLY ?? '';

jest.setTimeout(WARMUP_MS + DOWNTIME_MS + 2 * RECOVERY_LIMIT_MS + 60_000);

/** A fault: what strikes, and what ends it (the restart). Recovery is timed from the start of `heal`. */
interface Fault {
  name: string;
  /** The app the fault kills, which is not "left dead" while it is down. */
  victim?: AppName;
  strike(system: FaultSystem): Promise<void>;
  heal(system: FaultSystem): Promise<void>;
}

const killApp = (app: AppName): Fault => ({
  name: `SIGKILL ${app}`,
  victim: app,
  strike: async (system) => void (await system.app(app).stop('SIGKILL')),
  heal: async (system) => void (await system.startApp(app)),
});

const FAULTS: Fault[] = [
  killApp('order-service'),
  killApp('vsphere-adapter'),
  killApp('gateway'),
  killApp('sync-scheduler'),
  {
    name: 'restart NATS',
    strike: (system) => system.nats.stop('SIGTERM'),
    heal: (system) => system.nats.start(),
  },
  {
    name: 'restart Postgres (fast shutdown)',
    strike: (system) => system.postgres.stop('fast'),
    heal: (system) => system.postgres.start(),
  },
  {
    name: 'crash Postgres (SIGKILL)',
    strike: (system) => system.postgres.stop('crash'),
    heal: (system) => system.postgres.start(),
  },
];

/**
 * VM orders go in through the gateway's `POST /api/marketplace-orders/` (placement, review, the
 * adapter's work on vcsim) while each app is SIGKILLed and NATS and Postgres restart in turn. Each
 * client request makes at most one order, and each order ends done once, with one VM.
 */
describe('fault injection: VM orders flow on while processes are killed and NATS and Postgres restart', () => {
  const system = new FaultSystem({ requestTimeoutMs: 3_000, ackWaitMs: ACK_WAIT_MS, clientTimeoutMs: 5_000 });
  const load = new OrderLoad(system.submitOrder, LOAD_PER_SECOND);
  const rows: FaultRow[] = [];
  const suiteStarted = Date.now();
  let windowStart = 0;

  beforeAll(async () => {
    await system.start();
    load.start();
    windowStart = Date.now();
  });

  afterAll(async () => {
    await load.stop();
    process.stdout.write(
      `\nfault suite (${LOAD_PER_SECOND} orders/s, ${DOWNTIME_MS / 1000} s down per fault, ack wait ` +
        `${ACK_WAIT_MS / 1000} s), ${((Date.now() - suiteStarted) / 1000).toFixed(0)} s in all:\n` +
        `${formatFaultTable(rows, RECOVERY_LIMIT_MS)}\n\n`,
    );
    // FAULT_LOGS=<file> keeps every process's log lines for a post-mortem of a run that passed.
    if (process.env.FAULT_LOGS)
      writeFileSync(
        process.env.FAULT_LOGS,
        system.history
          .flatMap((p) => p.lines.map((line) => `${p.app}#${p.pid} ${JSON.stringify(line)}`))
          .join('\n'),
      );
    await system.stop();
  });

  /** Orders of the window: accepted ones, and rows whose creation was never confirmed (their reply was lost). */
  async function ordersOf(from: number, to: number): Promise<string[]> {
    const rowsCreated = await system.postgres.query<{ uuid: string }>(
      `SELECT uuid::text FROM marketplace.orders WHERE created >= to_timestamp($1 / 1000.0)
         AND created < to_timestamp($2 / 1000.0) AND attributes->>'name' LIKE $3`,
      [from, to, `${FAULT_ORDER_PREFIX}%`],
      system.databaseName,
    );
    return [...new Set([...load.accepted(from, to), ...rowsCreated.map((row) => row.uuid)])];
  }

  async function allTerminal(uuids: string[]): Promise<boolean> {
    const states = await system.orderStates(uuids);
    return uuids.every((uuid) => TERMINAL_STATES.includes(states.get(uuid) ?? ''));
  }

  for (const fault of FAULTS.filter((candidate) => candidate.name.includes(ONLY))) {
    it(`${fault.name}: every accepted order ends done once with one VM, answered once, no event lost or doubled, no process dead`, async () => {
      const revived = await system.reviveIfNeeded();
      expect(await until(() => system.healthy(), RECOVERY_LIMIT_MS)).toBeDefined();
      await sleep(WARMUP_MS);

      const terminalAtStrike = await system.terminalOrders();
      const struck = Date.now();
      await load.burst(BURST);
      await fault.strike(system);
      const deadWhileDown = new Set<string>();
      const watch = setInterval(() => {
        for (const app of APPS) if (app !== fault.victim && !system.app(app).running) deadWhileDown.add(app);
      }, 100);
      await sleep(DOWNTIME_MS);
      const ended = Date.now();
      let healError = '';
      await fault.heal(system).catch((error: unknown) => void (healError = String(error)));
      clearInterval(watch);

      // Recovered: every submission sent before the end has its answer, /health is 200 with every
      // service ok, and every order of the window is terminal.
      const recoveredAt = await until(async () => {
        if (load.attempts.some((a) => a.sentAt < ended && a.outcome === 'waiting')) return false;
        if (!(await system.healthy())) return false;
        return allTerminal(await ordersOf(windowStart, ended));
      }, RECOVERY_LIMIT_MS);

      const orders = await ordersOf(windowStart, ended);
      const audit: OrderAudit = await auditOrders(system, orders);
      const outcomes = load.outcomes(struck, ended);
      // Orders no client was told of (its answer lost for good): the retries with a key leave none.
      const confirmed = new Set(load.accepted());
      const unconfirmed = orders.filter((uuid) => !confirmed.has(uuid)).length;
      rows.push({
        fault: fault.name,
        inFlight: orders.filter((uuid) => !terminalAtStrike.has(uuid)).length,
        lost: audit.lost.size,
        doubled: audit.doubled.size,
        recoverSeconds: recoveredAt === undefined ? undefined : (recoveredAt - ended) / 1000,
        note:
          `${orders.length} audited; from the burst to the restart: ${outcomes.accepted} accepted, ` +
          `${outcomes.failed} unanswered after retrying, ${outcomes.refused} refused; ` +
          `${unconfirmed} created unconfirmed` +
          (outcomes.failed + outcomes.refused > 0
            ? ` (${load.commonFailure(struck, ended)?.slice(0, 80)})`
            : '') +
          (revived ? `; before it: ${revived}` : ''),
      });
      windowStart = ended;

      const unfinished = recoveredAt === undefined ? await system.describeState(orders) : '';
      expect({
        heal: healError,
        diedWhileDown: [...deadWhileDown],
        deadAfter: system.deadApps(),
        recovered: recoveredAt !== undefined ? 'yes' : `no: ${unfinished}`,
        lost: audit.lost.size,
        doubled: audit.doubled.size,
        problems: describeProblems(audit),
      }).toEqual({
        heal: '',
        diedWhileDown: [],
        deadAfter: [],
        recovered: 'yes',
        lost: 0,
        doubled: 0,
        problems: '',
      });
    });
  }

  it('after the load stops: every order ever accepted ended done once, with one answer and one VM', async () => {
    await load.stop();
    const stopped = Date.now();
    const orders = await ordersOf(0, stopped);
    const recoveredAt = await until(() => allTerminal(orders), RECOVERY_LIMIT_MS);
    const audit = await auditOrders(system, orders);
    const outcomes = load.outcomes();
    rows.push({
      fault: 'all, after the load stopped',
      inFlight: orders.length,
      lost: audit.lost.size,
      doubled: audit.doubled.size,
      recoverSeconds: recoveredAt === undefined ? undefined : (recoveredAt - stopped) / 1000,
      note: `${outcomes.accepted} accepted, ${outcomes.failed} unanswered after retrying, ${outcomes.refused} refused of ${load.attempts.length} sent`,
    });
    expect(outcomes.accepted).toBeGreaterThan(0);
    expect({ lost: audit.lost.size, doubled: audit.doubled.size, problems: describeProblems(audit) }).toEqual(
      {
        lost: 0,
        doubled: 0,
        problems: '',
      },
    );
    expect(system.deadApps()).toEqual([]);
  });

  it('the audit itself can fail: it counts an answer stored twice under a new event id, and an order that never was', async () => {
    const [answered] = load.accepted();
    const marketplaceResourceUuid = (
      await system.postgres.query<{ resource_uuid: string }>(
        'SELECT resource_uuid::text FROM marketplace.orders WHERE uuid = $1',
        [answered],
        system.databaseName,
      )
    )[0].resource_uuid;
    // A second answer as a buggy adapter would send it: same order, a new event id (the duplicate window lets it in).
    const second = buildEnvelope(
      OrderErredEvent,
      { orderUuid: answered, marketplaceResourceUuid, errorMessage: 'answered twice' },
      answered,
    );
    await publishEvent(jetstream(system.observer!), system.topology.subjects.orderErred, second);
    const neverCreated = randomUUID();

    const audit = await auditOrders(system, [answered, neverCreated]);

    expect([...audit.doubled]).toEqual([answered]);
    expect(audit.problems).toContainEqual({
      uuid: answered,
      kind: 'doubled',
      what: 'answers stored on the vSphere stream: 2',
    });
    expect([...audit.lost]).toEqual([neverCreated]);
  });
});
