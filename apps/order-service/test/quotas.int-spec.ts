import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { VM_GONE_FROM_VCENTER, VMWARE_VM_TYPE, type RequestReply } from '@app/contracts';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { VM_GONE } from '../../vsphere-adapter/src/machines/domain/vm-drift';
import type { Principal } from '../src/identity/domain/access-policy';
import { orderServiceDefinition } from '../src/order-service.definition';
import { QuotaRepository } from '../src/marketplace/repositories/quota.repository';
import { QuotaService } from '../src/marketplace/services/quota.service';
import { growthOf, NOTHING } from '../src/marketplace/domain/quota-rules';
import { CustomerRepository } from '../src/identity/repositories/customer.repository';
import { ProjectRepository } from '../src/identity/repositories/project.repository';
import { UnitOfWork } from '@app/messaging';
import { CustomerService } from '../src/identity/services/customer.service';
import { ProjectService } from '../src/identity/services/project.service';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';

const VM = { cpu: 2, ram: 2048, disk: 10240 };

/**
 * Quotas against a real Postgres: what usage counts in each state of a resource and its orders,
 * the check under the organisation's and project's row locks (concurrent orders never pass a
 * quota together), and who may set which limit.
 */
describe('quotas on Postgres', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let quotas: QuotaRepository;
  let service: QuotaService;
  let uow: UnitOfWork;
  let offeringUuid: string;

  const staff: Principal = {
    userUuid: randomUUID(),
    isStaff: true,
    ownedCustomers: new Set(),
    projectRoles: new Map(),
  };
  const ownerOf = (customerUuid: string): Principal => ({
    ...staff,
    isStaff: false,
    ownedCustomers: new Set([customerUuid]),
  });

  beforeAll(async () => {
    database = await createTestDatabase('quotas');
    dataSource = createServiceDataSource({
      url: database.url,
      schema: 'marketplace',
      entities: orderServiceDefinition.entities,
      migrations: [],
      applicationName: 'quotas-int',
      poolSize: 60,
    });
    await dataSource.initialize();
    quotas = new QuotaRepository(dataSource);
    const customers = new CustomerRepository(dataSource);
    service = new QuotaService(
      quotas,
      new CustomerService(customers),
      new ProjectService(new ProjectRepository(dataSource), customers),
    );
    uow = new UnitOfWork(dataSource);
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

  async function organisation(): Promise<{ customerUuid: string; projectUuid: string }> {
    const customerUuid = randomUUID();
    const projectUuid = randomUUID();
    await dataSource.query(`INSERT INTO "marketplace"."customers" ("uuid", "name") VALUES ($1, 'org')`, [
      customerUuid,
    ]);
    await dataSource.query(
      `INSERT INTO "marketplace"."projects" ("uuid", "customer_uuid", "name") VALUES ($1, $2, 'p')`,
      [projectUuid, customerUuid],
    );
    return { customerUuid, projectUuid };
  }

  async function resource(
    projectUuid: string,
    state: string,
    limits: Record<string, number>,
    backendId: string | null,
  ): Promise<string> {
    const uuid = randomUUID();
    await dataSource.query(
      `INSERT INTO "marketplace"."resources" ("uuid", "name", "state", "offering_uuid", "project_uuid", "backend_id", "limits")
       VALUES ($1, 'vm', $2, $3, $4, $5, $6)`,
      [uuid, state, offeringUuid, projectUuid, backendId, JSON.stringify(limits)],
    );
    return uuid;
  }

  async function order(
    resourceUuid: string,
    projectUuid: string,
    type: string,
    state: string,
    limits: object,
  ) {
    await dataSource.query(
      `INSERT INTO "marketplace"."orders" ("uuid", "type", "state", "offering_uuid", "project_uuid", "resource_uuid", "limits")
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [randomUUID(), type, state, offeringUuid, projectUuid, resourceUuid, JSON.stringify(limits)],
    );
  }

  const setState = (uuid: string, state: string, backendId: string | null = null) =>
    dataSource.query(
      `UPDATE "marketplace"."resources" SET "state" = $2, "backend_id" = $3 WHERE "uuid" = $1`,
      [uuid, state, backendId],
    );

  it('counts what exists and what is ordered, and releases what failed, ended or left vCenter', async () => {
    const { projectUuid } = await organisation();
    const owner = { kind: 'project' as const, uuid: projectUuid };
    const creating = await resource(projectUuid, 'Creating', VM, null);
    const running = await resource(projectUuid, 'OK', VM, 'vm-uuid-1');
    expect(await quotas.usageOf(owner)).toEqual({
      vcpu: 4,
      ram: 4096,
      storage: 20480,
      max_instances: 2,
      cost: 0,
    });

    // A pending Update counts the larger of the old and new sizes; once it erred, only the old.
    await order(running, projectUuid, 'Update', 'pending-consumer', { ...VM, cpu: 6, ram: 1024 });
    expect(await quotas.usageOf(owner)).toMatchObject({ vcpu: 8, ram: 4096 });
    await dataSource.query(`UPDATE "marketplace"."orders" SET "state" = 'erred' WHERE "resource_uuid" = $1`, [
      running,
    ]);
    expect(await quotas.usageOf(owner)).toMatchObject({ vcpu: 4 });

    // A Create that erred before vCenter made the VM uses nothing; one made, then erred, still does.
    await setState(creating, 'Erred');
    expect(await quotas.usageOf(owner)).toMatchObject({ vcpu: 2, max_instances: 1 });
    await setState(creating, 'Erred', 'vm-uuid-2');
    expect(await quotas.usageOf(owner)).toMatchObject({ vcpu: 4, max_instances: 2 });
    await setState(creating, 'Terminated', 'vm-uuid-2');
    expect(await quotas.usageOf(owner)).toMatchObject({ vcpu: 2, max_instances: 1 });

    // A VM deleted in vCenter frees its room; back again, it takes it again.
    await uow.run((tx) => quotas.setBackendGone(tx, running, true));
    expect(await quotas.usageOf(owner)).toEqual(NOTHING);
    await uow.run((tx) => quotas.setBackendGone(tx, running, false));
    expect(await quotas.usageOf(owner)).toMatchObject({ vcpu: 2, max_instances: 1 });
  });

  it('counts the monthly cost in cents, the larger while an Update is pending', async () => {
    const { projectUuid } = await organisation();
    const owner = { kind: 'project' as const, uuid: projectUuid };
    const vm = await resource(projectUuid, 'OK', VM, 'vm-cost');
    await dataSource.query(`UPDATE "marketplace"."resources" SET "cost" = '22.50' WHERE "uuid" = $1`, [vm]);
    expect((await quotas.usageOf(owner)).cost).toBe(2250);
    await order(vm, projectUuid, 'Update', 'executing', VM);
    await dataSource.query(`UPDATE "marketplace"."orders" SET "cost" = '30.05' WHERE "resource_uuid" = $1`, [
      vm,
    ]);
    expect((await quotas.usageOf(owner)).cost).toBe(3005);
    await quotas.setLimits(owner, { cost: 40 });
    expect(await service.view(owner)).toContainEqual({ name: 'cost', limit: 40, usage: 30.05 });
  });

  it("sums an organisation's usage across its projects", async () => {
    const { customerUuid, projectUuid } = await organisation();
    const other = randomUUID();
    await dataSource.query(
      `INSERT INTO "marketplace"."projects" ("uuid", "customer_uuid", "name") VALUES ($1, $2, 'q')`,
      [other, customerUuid],
    );
    await resource(projectUuid, 'OK', VM, 'a');
    await resource(other, 'Updating', VM, 'b');
    expect(await quotas.usageOf({ kind: 'customer', uuid: customerUuid })).toMatchObject({
      vcpu: 4,
      max_instances: 2,
    });
  });

  it('refuses the order that would pass a quota with its limit, the usage and the request', async () => {
    const { customerUuid, projectUuid } = await organisation();
    await quotas.setLimits({ kind: 'project', uuid: projectUuid }, { vcpu: 16 });
    for (let i = 0; i < 7; i += 1) await resource(projectUuid, 'OK', VM, `vm-${i}`);
    const project = { uuid: projectUuid, customerUuid };
    const asks = growthOf(null, { cpu: 4, ram: 1024 });
    const refused = await uow.run((tx) => service.admit(tx, project, asks));
    expect(refused).toEqual({
      status: 'error',
      code: 400,
      fields: { limits: ['Project quota for vCPU is 16; 14 are in use or ordered; this order asks for 4.'] },
    });
    expect(await service.preview(project, asks)).toEqual(refused);
    expect(await uow.run((tx) => service.admit(tx, project, growthOf(null, { cpu: 2 })))).toBeNull();
  });

  it('lets exactly as many concurrent orders through as the quota admits', async () => {
    const { customerUuid, projectUuid } = await organisation();
    await quotas.setLimits({ kind: 'customer', uuid: customerUuid }, { max_instances: 10 });
    const project = { uuid: projectUuid, customerUuid };
    // Each does what placement does: the check, then the resource, in one transaction.
    const attempts = Array.from({ length: 40 }, () =>
      uow.run(async (tx): Promise<RequestReply<never> | null> => {
        const refused = await service.admit(tx, project, growthOf(null, VM));
        if (refused) return refused;
        await tx.query(
          `INSERT INTO "marketplace"."resources" ("uuid", "name", "state", "offering_uuid", "project_uuid", "limits")
           VALUES ($1, 'vm', 'Creating', $2, $3, $4)`,
          [randomUUID(), offeringUuid, projectUuid, JSON.stringify(VM)],
        );
        return null;
      }),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome !== null)[0]).toEqual({
      status: 'error',
      code: 400,
      fields: {
        limits: ['Organisation quota for VMs is 10; 10 are in use or ordered; this order asks for 1.'],
      },
    });
    expect(await quotas.usageOf({ kind: 'project', uuid: projectUuid })).toMatchObject({ max_instances: 10 });
  });

  it("sets quotas for staff on organisations and owners on projects, never above the organisation's", async () => {
    const { customerUuid, projectUuid } = await organisation();
    const request = <B>(uuid: string, body: B) => ({
      caller: { user_uuid: staff.userUuid },
      params: { uuid },
      query: {},
      body,
    });
    const owner = ownerOf(customerUuid);
    expect(await service.setCustomerQuotas(request(customerUuid, { vcpu: 16 }), owner)).toMatchObject({
      code: 403,
    });
    expect(await service.setCustomerQuotas(request(customerUuid, { vcpu: 16 }), staff)).toEqual({
      status: 'ok',
      data: null,
    });
    expect(await service.setProjectQuotas(request(projectUuid, { vcpu: 17 }), owner)).toEqual({
      status: 'error',
      code: 400,
      fields: { vcpu: ["A project quota for vCPU cannot be above the organisation's (16)."] },
    });
    expect(await service.setProjectQuotas(request(projectUuid, { vcpu: 8, ram: 4096 }), owner)).toEqual({
      status: 'ok',
      data: null,
    });
    expect(
      await service.setProjectQuotas(request(projectUuid, { vcpu: 8 }), ownerOf(randomUUID())),
    ).toMatchObject({
      code: 404,
    });
    expect(await service.view({ kind: 'project', uuid: projectUuid })).toEqual([
      { name: 'vcpu', limit: 8, usage: 0 },
      { name: 'ram', limit: 4096, usage: 0 },
      { name: 'storage', limit: -1, usage: 0 },
      { name: 'max_instances', limit: -1, usage: 0 },
      { name: 'cost', limit: -1, usage: 0 },
    ]);
    // -1 lifts a limit again.
    await service.setProjectQuotas(request(projectUuid, { ram: -1 }), owner);
    expect(await quotas.limitsOf({ kind: 'project', uuid: projectUuid })).toEqual({ vcpu: 8 });
  });

  it("reads a VM gone from vCenter by the adapter's own message", () => {
    expect(VM_GONE_FROM_VCENTER).toBe(VM_GONE);
  });
});
