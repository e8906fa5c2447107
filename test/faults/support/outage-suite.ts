import { writeFileSync } from 'node:fs';
import type { AppName } from '../../support/app-process';
import { OrderLoad } from '../../support/order-load';
import { APPS, FaultSystem, TERMINAL_STATES, type HttpAnswer } from './fault-system';
import { auditOrders, describeProblems } from './order-audit';
import { envNumber, sleep, until } from './wait';

// The acceptance: each dependency away for 60 s. FAULT_OUTAGE_MS shortens it for local runs.
const OUTAGE_MS = envNumber('FAULT_OUTAGE_MS', 60_000);
const PROBE_EVERY_MS = 5_000;
const REQUEST_TIMEOUT_MS = 3_000;
/** What "at once" may take on a shared 2-core machine, beyond the request timeout itself. */
const ANSWER_SLACK_MS = 1_000;
const BACK_WITHIN_MS = 10_000;
/** How long we keep measuring after the return, so a slow recovery shows its figure instead of only failing. */
const MEASURE_LIMIT_MS = 60_000;

/** What a whole outage case may take: the outage, the measures after it, the system's start. */
export const OUTAGE_CASE_TIMEOUT_MS = OUTAGE_MS + 2 * MEASURE_LIMIT_MS + 60_000;

interface Probe {
  at: number;
  rest: HttpAnswer;
  health: HttpAnswer;
}

interface OutageReport {
  dependency: string;
  probes: Probe[];
  exited: string[];
  /** How long the dependency took to start and answer again. */
  startSeconds: number;
  healthBackSeconds?: number;
  ordersDoneSeconds?: number;
  orders: number;
  lost: number;
  doubled: number;
  problems: string;
  /** The system 10 s after the return, when it was not recovered by then. */
  stateAt10s: string;
}

/** The cases: what is stopped and started, and what REST and /health must say meanwhile. */
const CASES = {
  NATS: {
    name: `NATS stopped: REST answers 503 naming NATS at once, /health says NATS is down, no process exits; all back within 10 s of its return, every order done once`,
    stop: (system: FaultSystem) => system.nats.stop('SIGTERM'),
    start: (system: FaultSystem) => system.nats.start(),
    restNames: /\bnats\b/i,
    saysDown: (body: HealthBody) => body.nats === 'down',
  },
  Postgres: {
    name: `Postgres stopped: REST answers 503 naming Postgres at once, /health says which services lost it, no process exits; all back within 10 s of its return, every order done once`,
    stop: (system: FaultSystem) => system.postgres.stop('fast'),
    start: (system: FaultSystem) => system.postgres.start(),
    restNames: /postgres/i,
    saysDown: (body: HealthBody) =>
      body.services?.['order-service']?.postgres === 'down' &&
      body.services?.['vsphere-adapter']?.postgres === 'down',
  },
} as const;

/**
 * One dependency away for OUTAGE_MS (a minute) while VM orders are submitted, on a system of its
 * own (its own Postgres and nats-server on free ports), so the two outages run side by side: each
 * case is mostly a minute of waiting.
 */
export function describeOutage(dependency: keyof typeof CASES): void {
  const chosen = CASES[dependency];
  describe(`outage: ${dependency} away for a minute while orders are submitted`, () => {
    const system = new FaultSystem({
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      ackWaitMs: 5_000,
      clientTimeoutMs: 5_000,
    });
    // VM orders on vcsim, well below what the adapter finishes in a second (see process-faults): the
    // clients' retries of the outage's last 15 s all land at its end, and must be done 10 s later.
    const load = new OrderLoad(system.submitOrder, 1);
    const reports: OutageReport[] = [];
    const marks: string[] = [];
    const mark = (what: string) =>
      marks.push(`test ${JSON.stringify({ time: new Date().toISOString(), msg: what })}`);

    beforeAll(async () => {
      await system.start();
      load.start();
    });

    afterAll(async () => {
      await load.stop();
      // FAULT_LOGS=<file> keeps every process's log lines and the test's own marks, in <file>.NATS or
      // <file>.Postgres, for a post-mortem of a run that passed.
      if (process.env.FAULT_LOGS)
        writeFileSync(
          `${process.env.FAULT_LOGS}.${dependency}`,
          [
            ...marks,
            ...system.history.flatMap((p) =>
              p.lines.map((line) => `${p.app}#${p.pid} ${JSON.stringify(line)}`),
            ),
          ].join('\n'),
        );
      process.stdout.write(
        `\noutages of ${OUTAGE_MS / 1000} s:\n${reports.map(describeReport).join('\n')}\n\n`,
      );
      await system.stop();
    });

    async function ordersUntil(to: number): Promise<string[]> {
      const created = await system.postgres.query<{ uuid: string }>(
        'SELECT uuid::text FROM marketplace.orders WHERE created < to_timestamp($1 / 1000.0)',
        [to],
        system.databaseName,
      );
      return [...new Set([...load.accepted(0, to), ...created.map((row) => row.uuid)])];
    }

    /**
     * Takes `dependency` away for OUTAGE_MS with orders in flight, probing REST and /health through
     * the gateway every few seconds, then brings it back and times the recovery.
     */
    async function outage(
      dependency: string,
      stop: () => Promise<void>,
      start: () => Promise<void>,
    ): Promise<OutageReport> {
      expect(await until(() => system.healthy(), MEASURE_LIMIT_MS)).toBeDefined();
      await load.burst(10);
      mark('stopping');
      await stop();
      const began = Date.now();
      mark('stopped');
      const exited = new Set<AppName>();
      const watch = setInterval(() => {
        for (const app of APPS) if (!system.app(app).running) exited.add(app);
      }, 100);
      const probes: Probe[] = [];
      await sleep(1_000);
      while (Date.now() - began < OUTAGE_MS - 1_000) {
        const at = Date.now();
        const [rest, health] = await Promise.all([
          system.http('/api/customers/', true, 30_000),
          system.http('/health', false, 30_000),
        ]);
        probes.push({ at: at - began, rest, health });
        await sleep(Math.min(PROBE_EVERY_MS - (Date.now() - at), OUTAGE_MS - (Date.now() - began)));
      }
      // The return is the moment the dependency answers again: its own start (a Postgres recovery,
      // slower on a loaded machine) is not the system's recovery time.
      const starting = Date.now();
      await start();
      const returned = Date.now();
      mark('returned');
      const orders = await ordersUntil(returned);
      mark(`measured orders ${orders.join(',')}`);
      const allDone = async () => {
        const states = await system.orderStates(orders);
        return orders.every((uuid) => TERMINAL_STATES.includes(states.get(uuid) ?? ''));
      };
      const measured = Promise.all([
        until(() => system.healthy(), MEASURE_LIMIT_MS),
        until(allDone, MEASURE_LIMIT_MS),
      ]);
      // What is still wrong once the 10 s are up goes into the failure message.
      const tenSecondsLater = sleep(BACK_WITHIN_MS).then(async () => {
        const [healthy, done] = await Promise.all([
          system.healthy().catch(() => false),
          allDone().catch(() => false),
        ]);
        return healthy && done ? '' : system.describeState(orders);
      });
      const [[healthBack, ordersDone], stateAt10s] = await Promise.all([measured, tenSecondsLater]);
      clearInterval(watch);
      for (const app of APPS) if (!system.app(app).running) exited.add(app);
      const audit = await auditOrders(system, orders);
      const report: OutageReport = {
        dependency,
        probes,
        exited: [...exited].map(
          (app) => `${app} (${system.app(app).exitStatus})\n${system.app(app).tail(6)}`,
        ),
        startSeconds: (returned - starting) / 1000,
        healthBackSeconds: healthBack === undefined ? undefined : (healthBack - returned) / 1000,
        ordersDoneSeconds: ordersDone === undefined ? undefined : (ordersDone - returned) / 1000,
        orders: orders.length,
        lost: audit.lost.size,
        doubled: audit.doubled.size,
        problems: describeProblems(audit),
        stateAt10s,
      };
      reports.push(report);
      return report;
    }

    /** Probes whose REST answer is not a 503 naming the dependency within the request timeout. */
    function badRestAnswers(report: OutageReport, names: RegExp): string[] {
      return report.probes
        .filter(
          ({ rest }) =>
            rest.status !== 503 ||
            rest.ms > REQUEST_TIMEOUT_MS + ANSWER_SLACK_MS ||
            !names.test(text(rest.body)),
        )
        .map(({ at, rest }) => `+${at} ms: ${rest.status} in ${rest.ms} ms ${rest.error ?? text(rest.body)}`);
    }

    function badHealthAnswers(report: OutageReport, saysDown: (body: HealthBody) => boolean): string[] {
      return report.probes
        .filter(
          ({ health }) =>
            health.status !== 503 ||
            health.ms > REQUEST_TIMEOUT_MS + ANSWER_SLACK_MS ||
            !saysDown((health.body ?? {}) as HealthBody),
        )
        .map(
          ({ at, health }) =>
            `+${at} ms: ${health.status} in ${health.ms} ms ${health.error ?? text(health.body)}`,
        );
    }

    function expectRecovered(report: OutageReport): void {
      expect({
        exited: report.exited,
        healthBackWithin10s:
          report.healthBackSeconds !== undefined && report.healthBackSeconds <= BACK_WITHIN_MS / 1000,
        ordersDoneWithin10s:
          report.ordersDoneSeconds !== undefined && report.ordersDoneSeconds <= BACK_WITHIN_MS / 1000,
        lost: report.lost,
        doubled: report.doubled,
        problems: report.problems,
        stateAt10s: report.stateAt10s,
      }).toEqual({
        exited: [],
        healthBackWithin10s: true,
        ordersDoneWithin10s: true,
        lost: 0,
        doubled: 0,
        problems: '',
        stateAt10s: '',
      });
    }

    it(
      chosen.name,
      async () => {
        const report = await outage(
          dependency,
          () => chosen.stop(system),
          () => chosen.start(system),
        );
        expect(report.probes.length).toBeGreaterThan(0);
        expect({
          rest: badRestAnswers(report, chosen.restNames),
          health: badHealthAnswers(report, chosen.saysDown),
        }).toEqual({ rest: [], health: [] });
        expectRecovered(report);
      },
      OUTAGE_CASE_TIMEOUT_MS,
    );
  });
}

interface HealthBody {
  nats?: string;
  services?: Record<string, { postgres?: string; nats?: string; status?: string }>;
}

function text(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function describeReport(report: OutageReport): string {
  const seconds = (value?: number) =>
    value === undefined ? `not within ${MEASURE_LIMIT_MS / 1000}` : value.toFixed(1);
  const restSeen = new Map<string, number>();
  for (const { rest } of report.probes) {
    const key = `${rest.status} ${rest.error ?? text(rest.body).slice(0, 100)}`;
    restSeen.set(key, (restSeen.get(key) ?? 0) + 1);
  }
  const slowest = Math.max(0, ...report.probes.map((p) => Math.max(p.rest.ms, p.health.ms)));
  return [
    `${report.dependency} (answering ${report.startSeconds.toFixed(1)} s after its start): ` +
      `health back ${seconds(report.healthBackSeconds)} s and orders done ` +
      `${seconds(report.ordersDoneSeconds)} s after its return; ${report.orders} orders, ${report.lost} lost, ` +
      `${report.doubled} doubled; exited: ${report.exited.length ? report.exited.map((e) => e.split('\n')[0]).join(', ') : 'none'}`,
    `  REST during the outage (${report.probes.length} probes, slowest answer ${slowest} ms):`,
    ...[...restSeen].map(([answer, count]) => `    ${count}× ${answer}`),
    `  /health during the outage, last: ${text(report.probes.at(-1)?.health.body).slice(0, 300)}`,
  ].join('\n');
}
