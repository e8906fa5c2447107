import type { NatsConnection } from '@nats-io/transport-node';
import { Client } from 'pg';
import type { Topology } from '@app/contracts';
import { countBy, readStream } from '../../support/stream-census';

/** One thing that did not happen exactly once for one order. */
export interface OrderProblem {
  uuid: string;
  kind: 'lost' | 'doubled';
  what: string;
}

export interface OrderAudit {
  audited: number;
  /** Orders missing their terminal state, an event or an effect. */
  lost: Set<string>;
  /** Orders with an event or an effect more than once. */
  doubled: Set<string>;
  problems: OrderProblem[];
}

type Counts = Map<string, number>;

/** What the audit reads: the services' database and their streams, through a link of the test's own. */
export interface AuditedSystem {
  readonly databaseUrl: string;
  readonly topology: Topology;
  readonly observer?: NatsConnection;
  /** VMs in vCenter per order uuid, where the system makes them: the effect, counted once per order. */
  vmCounts?(): Promise<Map<string, number>>;
}

/**
 * Checks every order of `uuids` end to end, on state and not on logs: one row, done (an order of a
 * client whose vCenter took every VM ends nowhere else; erred under a fault of our own parts is a
 * lost order); one order per client request (orders carry their request's name);
 * its OrderSubmitted once in the order service's outbox and once on the marketplace stream; the
 * adapter's effect once (one inbox row, one answer in its outbox); the answer once on the vSphere
 * stream; and the order service's inbox row for it once; where the system counts VMs, one VM per order. Streams are read message by message and
 * counted per order, so a repeat under a new Nats-Msg-Id is seen (the duplicate window hides only
 * the same id).
 */
export async function auditOrders(system: AuditedSystem, uuids: string[]): Promise<OrderAudit> {
  const audit: OrderAudit = { audited: uuids.length, lost: new Set(), doubled: new Set(), problems: [] };
  if (uuids.length === 0) return audit;
  const db = await readDatabase(system, uuids);
  const marketplace = await readStream(system.observer!, system.topology.streams.marketplace.name);
  const vsphere = await readStream(system.observer!, system.topology.streams.vsphere.name);
  const submittedStored = countBy(marketplace, 'OrderSubmitted');
  const answersStored = sum(countBy(vsphere, 'OrderErred'), countBy(vsphere, 'OrderDone'));
  const vms = await system.vmCounts?.();

  const expectOnce = (uuid: string, what: string, counts: Counts) => {
    const count = counts.get(uuid) ?? 0;
    if (count === 1) return;
    const kind = count === 0 ? 'lost' : 'doubled';
    audit[kind].add(uuid);
    audit.problems.push({ uuid, kind, what: `${what}: ${count}` });
  };
  for (const uuid of uuids) {
    const order = db.orders.get(uuid);
    if (order?.state !== 'done') {
      audit.lost.add(uuid);
      const state = order
        ? `${order.state}${order.error ? ` (${order.error.slice(0, 120)})` : ''}`
        : 'no row';
      audit.problems.push({ uuid, kind: 'lost', what: `order state: ${state}` });
    }
    if (order) expectOnce(uuid, `orders made by the client request "${order.name}"`, db.ordersOfRequest);
    expectOnce(uuid, 'OrderSubmitted in the order service outbox', db.submittedInOutbox);
    expectOnce(uuid, 'OrderSubmitted stored on the marketplace stream', submittedStored);
    expectOnce(uuid, 'adapter inbox rows for its OrderSubmitted', db.adapterInbox);
    expectOnce(uuid, 'answers in the adapter outbox', db.answersInOutbox);
    expectOnce(uuid, 'answers stored on the vSphere stream', answersStored);
    expectOnce(uuid, 'order service inbox rows for its answers', db.orderServiceInbox);
    if (vms) expectOnce(uuid, 'VMs in vCenter', vms);
  }
  return audit;
}

/** A short text of the first problems, for assertion messages. */
export function describeProblems(audit: OrderAudit, limit = 12): string {
  const lines = audit.problems.slice(0, limit).map((p) => `${p.kind} ${p.uuid}: ${p.what}`);
  if (audit.problems.length > limit) lines.push(`… and ${audit.problems.length - limit} more`);
  return lines.join('\n');
}

async function readDatabase(system: AuditedSystem, uuids: string[]) {
  const client = new Client({ connectionString: system.databaseUrl });
  await client.connect();
  const perOrder = async (sql: string): Promise<Counts> => {
    const { rows } = await client.query<{ uuid: string; n: number }>(sql, [uuids]);
    return new Map(rows.map((row) => [row.uuid, row.n]));
  };
  try {
    const orders = new Map(
      (
        await client.query<{ uuid: string; state: string; name: string; error: string }>(
          `SELECT uuid::text, state, attributes->>'name' AS name, error_message AS error
           FROM marketplace.orders WHERE uuid = ANY($1::uuid[])`,
          [uuids],
        )
      ).rows.map((row) => [row.uuid, row]),
    );
    // Each audited order, with how many orders carry its name (its client request's).
    const ordersOfRequest = await perOrder(
      `SELECT o.uuid::text AS uuid, count(*)::int AS n FROM marketplace.orders o
       JOIN marketplace.orders same ON same.attributes->>'name' = o.attributes->>'name'
       WHERE o.uuid = ANY($1::uuid[]) GROUP BY 1`,
    );
    const submittedInOutbox = await perOrder(
      `SELECT correlation_id AS uuid, count(*)::int AS n FROM marketplace.outbox
       WHERE type = 'OrderSubmitted' AND correlation_id = ANY($1) GROUP BY 1`,
    );
    const adapterInbox = await perOrder(
      `SELECT o.correlation_id AS uuid, count(*)::int AS n FROM marketplace.outbox o
       JOIN vsphere.inbox i ON i.event_id = o.id
       WHERE o.type = 'OrderSubmitted' AND o.correlation_id = ANY($1) GROUP BY 1`,
    );
    const answersInOutbox = await perOrder(
      `SELECT correlation_id AS uuid, count(*)::int AS n FROM vsphere.outbox
       WHERE type IN ('OrderErred', 'OrderDone') AND correlation_id = ANY($1) GROUP BY 1`,
    );
    const orderServiceInbox = await perOrder(
      `SELECT o.correlation_id AS uuid, count(*)::int AS n FROM vsphere.outbox o
       JOIN marketplace.inbox i ON i.event_id = o.id
       WHERE o.type IN ('OrderErred', 'OrderDone') AND o.correlation_id = ANY($1) GROUP BY 1`,
    );
    return { orders, ordersOfRequest, submittedInOutbox, adapterInbox, answersInOutbox, orderServiceInbox };
  } finally {
    await client.end();
  }
}

function sum(...maps: Counts[]): Counts {
  const total: Counts = new Map();
  for (const map of maps) for (const [key, n] of map) total.set(key, (total.get(key) ?? 0) + n);
  return total;
}
