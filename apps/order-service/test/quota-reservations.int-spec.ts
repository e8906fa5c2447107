import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { VMWARE_VM_TYPE } from '@app/contracts';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { orderServiceDefinition } from '../src/order-service.definition';
import { QuotaRepository } from '../src/marketplace/repositories/quota.repository';
import { QuotaReservationService } from '../src/marketplace/services/quota-reservation.service';
import { QuotaService } from '../src/marketplace/services/quota.service';
import { CustomerRepository } from '../src/identity/repositories/customer.repository';
import { ProjectRepository } from '../src/identity/repositories/project.repository';
import { UnitOfWork } from '@app/messaging';
import { CustomerService } from '../src/identity/services/customer.service';
import { ProjectService } from '../src/identity/services/project.service';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';

/**
 * Reservations of growth asked on a VM's own endpoints, against a real Postgres: counted in usage
 * beside the resource's limits, checked under the organisation's and project's row locks (so
 * concurrent requests never pass a quota together), recorded once per operation, and released.
 */
describe('quota reservations on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let quotas: QuotaRepository;
  let reservations: QuotaReservationService;
  let offeringUuid: string;

  beforeAll(async () => {
    database = await createTestDatabase('quotares');
    dataSource = createServiceDataSource({
      url: database.url,
      schema: 'marketplace',
      entities: orderServiceDefinition.entities,
      migrations: [],
      applicationName: 'quota-reservations-int',
      poolSize: 40,
    });
    await dataSource.initialize();
    quotas = new QuotaRepository(dataSource);
    const customers = new CustomerRepository(dataSource);
    const checks = new QuotaService(
      quotas,
      new CustomerService(customers),
      new ProjectService(new ProjectRepository(dataSource), customers),
    );
    reservations = new QuotaReservationService(new UnitOfWork(dataSource), quotas, checks);
    offeringUuid = randomUUID();
    await dataSource.query(
      `INSERT INTO "marketplace"."offerings" ("uuid", "name", "type") VALUES ($1, 'vm', $2)`,
      [offeringUuid, VMWARE_VM_TYPE],
    );
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  /** An organisation with a project holding one OK VM of `disk` MiB; its resource's uuid. */
  async function vmIn(disk: number): Promise<{ projectUuid: string; resourceUuid: string }> {
    const customerUuid = randomUUID();
    const projectUuid = randomUUID();
    const resourceUuid = randomUUID();
    await dataSource.query(`INSERT INTO "marketplace"."customers" ("uuid", "name") VALUES ($1, 'org')`, [
      customerUuid,
    ]);
    await dataSource.query(
      `INSERT INTO "marketplace"."projects" ("uuid", "customer_uuid", "name") VALUES ($1, $2, 'p')`,
      [projectUuid, customerUuid],
    );
    await dataSource.query(
      `INSERT INTO "marketplace"."resources" ("uuid", "name", "state", "offering_uuid", "project_uuid", "backend_id", "limits")
       VALUES ($1, 'vm', 'OK', $2, $3, 'vm-1', $4)`,
      [resourceUuid, offeringUuid, projectUuid, JSON.stringify({ cpu: 2, ram: 2048, disk })],
    );
    return { projectUuid, resourceUuid };
  }

  const storageOf = async (projectUuid: string) =>
    (await quotas.usageOf({ kind: 'project', uuid: projectUuid })).storage;
  const disk = (resourceUuid: string, storage: number, operationUuid = randomUUID()) =>
    reservations.reserve({
      operation_uuid: operationUuid,
      resource_uuid: resourceUuid,
      growth: { vcpu: 0, ram: 0, storage },
    });

  it('counts a reservation in usage once, however often it is asked, until it is released', async () => {
    const { projectUuid, resourceUuid } = await vmIn(10_240);
    const operation = randomUUID();
    expect(await disk(resourceUuid, 4096, operation)).toEqual({ refused: null });
    expect(await disk(resourceUuid, 4096, operation)).toEqual({ refused: null });
    expect(await storageOf(projectUuid)).toBe(10_240 + 4096);
    await reservations.release({ operation_uuid: operation });
    expect(await storageOf(projectUuid)).toBe(10_240);
  });

  it('refuses growth past the quota with the quota and a message worded for a request', async () => {
    const { projectUuid, resourceUuid } = await vmIn(10_240);
    await quotas.setLimits({ kind: 'project', uuid: projectUuid }, { storage: 12_288 });
    expect(await disk(resourceUuid, 4096)).toEqual({
      refused: {
        quota: 'storage',
        message:
          'Project quota for storage (MiB) is 12288; 10240 are in use or ordered; this request asks for 4096.',
      },
    });
    expect(await storageOf(projectUuid)).toBe(10_240);
  });

  it('lets exactly as many concurrent reservations through as the quota admits', async () => {
    const { projectUuid, resourceUuid } = await vmIn(1024);
    await quotas.setLimits({ kind: 'project', uuid: projectUuid }, { storage: 1024 + 5 * 1024 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => disk(resourceUuid, 1024)));
    const accepted = answers.filter((answer) => answer.refused === null).length;
    console.log(`quota reservations race: ${accepted} of 20 accepted against room for 5`);
    expect(accepted).toBe(5);
    expect(await storageOf(projectUuid)).toBe(1024 + 5 * 1024);
    // One of them asked again with the quota full: still reserved, not refused, not counted twice.
    const operation = randomUUID();
    await quotas.setLimits({ kind: 'project', uuid: projectUuid }, { storage: 1024 + 6 * 1024 });
    expect(await disk(resourceUuid, 1024, operation)).toEqual({ refused: null });
    expect(await disk(resourceUuid, 1024, operation)).toEqual({ refused: null });
    expect(await storageOf(projectUuid)).toBe(1024 + 6 * 1024);
  });

  it('stops counting a reservation past its expiry (one the adapter never queued nor released)', async () => {
    const { projectUuid, resourceUuid } = await vmIn(1024);
    const operation = randomUUID();
    await disk(resourceUuid, 2048, operation);
    expect(await storageOf(projectUuid)).toBe(3072);
    await dataSource.query(
      `UPDATE "marketplace"."quota_reservations" SET "expires" = now() - interval '1 second'
       WHERE "operation_uuid" = $1`,
      [operation],
    );
    expect(await storageOf(projectUuid)).toBe(1024);
  });
});
