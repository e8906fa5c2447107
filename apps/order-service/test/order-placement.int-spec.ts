import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { topology, type Envelope } from '@app/contracts';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { DeadlinePassedError } from '../src/identity';
import { orderServiceDefinition } from '../src/order-service.definition';
import {
  OrderPlacementRepository,
  type NewCreateOrder,
} from '../src/marketplace/repositories/order-placement.repository';
import { OrderViewRepository } from '../src/marketplace/repositories/order-view.repository';
import { UnitOfWork } from '../src/identity';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';

/**
 * The Create order's write path against a real Postgres: the context read in one statement, the
 * resource, order and events written in one, and the views the events carry equal to the views
 * OrderViewRepository reads back (they are built, not read, on the hot path).
 */
describe('order placement on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let placements: OrderPlacementRepository;
  let views: OrderViewRepository;
  let uow: UnitOfWork;
  const names = topology('placementint');
  const ids = {
    provider: randomUUID(),
    customer: randomUUID(),
    project: randomUUID(),
    offering: randomUUID(),
    plan: randomUUID(),
    user: randomUUID(),
  };

  beforeAll(async () => {
    database = await createTestDatabase('orderplacement');
    dataSource = createServiceDataSource({
      url: database.url,
      schema: 'marketplace',
      entities: orderServiceDefinition.entities,
      migrations: [],
      applicationName: 'order-placement-int',
    });
    await dataSource.initialize();
    placements = new OrderPlacementRepository(dataSource, { subjects: names.subjects });
    views = new OrderViewRepository(dataSource);
    uow = new UnitOfWork(dataSource);
    const sql = (text: string, values: unknown[]) => dataSource.query(text, values);
    await sql(`INSERT INTO "marketplace"."users" ("uuid", "username") VALUES ($1, 'placer')`, [ids.user]);
    await sql(
      `INSERT INTO "marketplace"."customers" ("uuid", "name") VALUES ($1, 'Provider'), ($2, 'Buyer')`,
      [ids.provider, ids.customer],
    );
    await sql(`INSERT INTO "marketplace"."projects" ("uuid", "customer_uuid", "name") VALUES ($1, $2, 'P')`, [
      ids.project,
      ids.customer,
    ]);
    await sql(
      `INSERT INTO "marketplace"."offerings" ("uuid", "name", "type", "customer_uuid", "state")
       VALUES ($1, 'Basic', 'Marketplace.Basic', $2, 'Active')`,
      [ids.offering, ids.provider],
    );
    await sql(
      `INSERT INTO "marketplace"."plans" ("uuid", "offering_uuid", "name") VALUES ($1, $2, 'Small')`,
      [ids.plan, ids.offering],
    );
    await sql(
      `INSERT INTO "marketplace"."plan_prices" ("plan_uuid", "component_type", "price") VALUES ($1, 'cpu', 1.5)`,
      [ids.plan],
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  async function order(overrides: Partial<NewCreateOrder> = {}): Promise<NewCreateOrder> {
    const context = await placements.context(ids.project, ids.offering, ids.plan, ids.user);
    return {
      orderUuid: randomUUID(),
      marketplaceResourceUuid: randomUUID(),
      state: 'pending-provider',
      context: { project: context.project!, offering: context.offering! },
      plan: { uuid: ids.plan, name: 'Small' },
      name: 'one',
      description: 'the first',
      attributes: { name: 'one', description: 'the first', size: 'xl' },
      limits: { cpu: 2 },
      cost: '3.00',
      endDate: null,
      createdBy: ids.user,
      createdByUsername: context.username,
      consumerReviewed: true,
      ...overrides,
    };
  }

  const outboxOf = (aggregates: string[]) =>
    dataSource.query<{ subject: string; aggregate: string; correlation_id: string; envelope: Envelope }[]>(
      `SELECT "subject", "aggregate", "correlation_id", "envelope" FROM "marketplace"."outbox"
       WHERE "aggregate" = ANY($1::text[]) ORDER BY "seq"`,
      [aggregates],
    );

  it('reads the project, offering, plan with prices and username in one statement, null where missing', async () => {
    const context = await placements.context(ids.project, ids.offering, ids.plan, ids.user);
    expect(context).toEqual({
      project: { uuid: ids.project, customerUuid: ids.customer, name: 'P', customerName: 'Buyer' },
      offering: {
        uuid: ids.offering,
        name: 'Basic',
        type: 'Marketplace.Basic',
        state: 'Active',
        customerUuid: ids.provider,
        providerName: 'Provider',
        termsOfService: '',
        maxResourceTerminationOffsetInDays: null,
      },
      plan: {
        plan: { uuid: ids.plan, offeringUuid: ids.offering, name: 'Small', archived: false },
        prices: { cpu: '1.5000' },
      },
      username: 'placer',
    });
    expect(await placements.context(randomUUID(), randomUUID(), null, randomUUID())).toEqual({
      project: null,
      offering: null,
      plan: null,
      username: null,
    });
  });

  it('writes the order, its resource and their events; the events carry the views read back', async () => {
    const input = await order({ endDate: new Date('2030-01-02T03:04:05.000Z') });
    const view = await uow.run((tx) => placements.createOrder(tx, input));
    expect(view).toEqual(await views.order(input.orderUuid));
    const events = await outboxOf([input.marketplaceResourceUuid, input.orderUuid]);
    expect(events.map((event) => event.subject)).toEqual([
      names.subjects.orderStateChanged,
      names.subjects.resourceStateChanged,
    ]);
    expect(events.map((event) => [event.aggregate, event.correlation_id])).toEqual([
      [input.marketplaceResourceUuid, input.orderUuid],
      [input.marketplaceResourceUuid, input.orderUuid],
    ]);
    expect(events[0].envelope.data).toEqual({
      order: await views.order(input.orderUuid),
      previous_state: null,
    });
    const resource = await views.resource(input.marketplaceResourceUuid);
    expect(resource).toMatchObject({
      state: 'Creating',
      end_date: '2030-01-02T03:04:05.000Z',
      end_date_requested_by_uuid: ids.user,
    });
    expect(events[1].envelope.data).toEqual({ resource, previous_state: null });
    const [row] = await dataSource.query<{ consumer_reviewed_by: string; cost: string }[]>(
      `SELECT "consumer_reviewed_by", "cost"::text AS "cost" FROM "marketplace"."orders" WHERE "uuid" = $1`,
      [input.orderUuid],
    );
    expect(row).toEqual({ consumer_reviewed_by: ids.user, cost: '3.00' });
  });

  it('adds OrderSubmitted, keyed by the order, last, for an order that executes at once', async () => {
    const input = await order({ state: 'executing', plan: null, cost: null });
    await uow.run((tx) => placements.createOrder(tx, input));
    const events = await outboxOf([input.marketplaceResourceUuid, input.orderUuid]);
    expect(events.map((event) => event.subject)).toEqual([
      names.subjects.orderStateChanged,
      names.subjects.resourceStateChanged,
      names.subjects.orderSubmitted('Marketplace.Basic'),
    ]);
    expect(events[2]).toMatchObject({ aggregate: input.orderUuid, correlation_id: input.orderUuid });
    expect(events[2].envelope.data).toMatchObject({
      orderUuid: input.orderUuid,
      orderType: 'Create',
      marketplaceResourceUuid: input.marketplaceResourceUuid,
      customerUuid: ids.customer,
      backendId: null,
    });
    // The legacy name goes out too, for an order service or adapter of the version before the
    // rename still running during an upgrade.
    expect(events[2].envelope.data).toHaveProperty('resourceUuid', input.marketplaceResourceUuid);
  });

  it('writes nothing when the deadline passes before the commit', async () => {
    const input = await order();
    const deadline = Date.now() + 200;
    await expect(
      uow.run(async (tx) => {
        const view = await placements.createOrder(tx, input);
        // The work outlasts the gateway's deadline: the commit comes after it.
        while (Date.now() <= deadline) await new Promise((resolve) => setTimeout(resolve, 10));
        return view;
      }, deadline),
    ).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(await views.order(input.orderUuid)).toBeNull();
    expect(await outboxOf([input.marketplaceResourceUuid, input.orderUuid])).toEqual([]);
  });
});
