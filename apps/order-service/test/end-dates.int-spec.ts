import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { VMWARE_VM_TYPE } from '@app/contracts';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { orderServiceDefinition } from '../src/order-service.definition';
import { EndDateRepository } from '../src/marketplace/repositories/end-date.repository';
import { UnitOfWork } from '@app/messaging';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';

/**
 * What the end-date sweep finds on a real Postgres: resources near their end date for warnings,
 * and those whose end date came for a Terminate — never one already terminated or with an order
 * pending (a second sweep finds nothing to order twice) — and each warning recorded once.
 */
describe('end dates on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let endDates: EndDateRepository;
  let uow: UnitOfWork;
  let offeringUuid: string;
  let projectUuid: string;
  const now = new Date('2026-12-01T12:00:00Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  beforeAll(async () => {
    database = await createTestDatabase('enddates');
    dataSource = createServiceDataSource({
      url: database.url,
      schema: 'marketplace',
      entities: orderServiceDefinition.entities,
      migrations: [],
      applicationName: 'end-dates-int',
    });
    await dataSource.initialize();
    endDates = new EndDateRepository(dataSource);
    uow = new UnitOfWork(dataSource);
    offeringUuid = randomUUID();
    projectUuid = randomUUID();
    const customerUuid = randomUUID();
    await dataSource.query(
      `INSERT INTO "marketplace"."offerings" ("uuid", "name", "type") VALUES ($1, 'vm', $2)`,
      [offeringUuid, VMWARE_VM_TYPE],
    );
    await dataSource.query(`INSERT INTO "marketplace"."customers" ("uuid", "name") VALUES ($1, 'org')`, [
      customerUuid,
    ]);
    await dataSource.query(
      `INSERT INTO "marketplace"."projects" ("uuid", "customer_uuid", "name") VALUES ($1, $2, 'p')`,
      [projectUuid, customerUuid],
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  async function resource(state: string, endDate: Date | null): Promise<string> {
    const uuid = randomUUID();
    await dataSource.query(
      `INSERT INTO "marketplace"."resources" ("uuid", "name", "state", "offering_uuid", "project_uuid", "end_date")
       VALUES ($1, 'vm', $2, $3, $4, $5)`,
      [uuid, state, offeringUuid, projectUuid, endDate],
    );
    return uuid;
  }

  it('finds what is due for a warning and for a Terminate, and nothing twice', async () => {
    const soon = await resource('OK', at(3600));
    const later = await resource('OK', at(10 * 86_400));
    const due = await resource('OK', at(-1));
    const erred = await resource('Erred', at(-60));
    const gone = await resource('Terminated', at(-60));
    const pending = await resource('Terminating', at(-60));
    await dataSource.query(
      `INSERT INTO "marketplace"."orders" ("uuid", "type", "state", "offering_uuid", "project_uuid", "resource_uuid")
       VALUES ($1, 'Terminate', 'executing', $2, $3, $4)`,
      [randomUUID(), offeringUuid, projectUuid, pending],
    );
    const candidates = await endDates.warningCandidates(now, 86_400);
    expect(candidates).toEqual(expect.arrayContaining([soon, due, erred, pending]));
    expect(candidates).not.toContain(later);
    expect(candidates).not.toContain(gone);
    expect((await endDates.dueForTermination(now)).map((row) => row.uuid)).toEqual([erred, due]);

    await uow.run(async (tx) => {
      const row = await endDates.lock(tx, soon);
      expect(row).toEqual({ uuid: soon, endDate: at(3600), warnings: [] });
      await endDates.addWarnings(tx, soon, [86_400]);
    });
    expect(await uow.run((tx) => endDates.lock(tx, soon))).toMatchObject({ warnings: [86_400] });
    // A new end date starts the warnings afresh; none at all takes the resource out of the sweep.
    await uow.run((tx) => endDates.setEndDate(tx, soon, at(7200), null));
    expect(await uow.run((tx) => endDates.lock(tx, soon))).toMatchObject({ endDate: at(7200), warnings: [] });
    await uow.run((tx) => endDates.setEndDate(tx, soon, null, null));
    expect(await endDates.warningCandidates(now, 86_400)).not.toContain(soon);
  });
});
