import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createServiceDataSource } from '@app/platform/persistence/data-source';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { VSPHERE_SCHEMA } from '../src/config/vsphere-adapter.config';
import { VmOperationRepository } from '../src/machines/repositories/vm-operation.repository';

jest.setTimeout(60_000);

/**
 * The queue's claim as two adapter instances race for it (two pools on one database, no adapter):
 * one operation running per VM at any time, in the order they were queued, each run once.
 */
describe('VM operation claims across instances', () => {
  let db: TestDatabase;
  const pools: DataSource[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('adapter_vm_op_claims');
    for (let i = 0; i < 2; i++) {
      const pool = createServiceDataSource({
        url: db.url,
        schema: VSPHERE_SCHEMA,
        entities: [],
        migrations: [],
        applicationName: `claims-${i}`,
      });
      await pool.initialize();
      pools.push(pool);
    }
  });

  afterAll(async () => {
    for (const pool of pools) await pool.destroy();
    await db.drop();
  });

  it('never runs two operations of one VM at once, runs them in queue order, each once', async () => {
    const [first] = pools;
    const repo = new VmOperationRepository(first);
    const vms: string[] = [];
    for (let i = 0; i < 3; i++) {
      const vm = randomUUID();
      vms.push(vm);
      await first.query(
        `INSERT INTO "vsphere"."virtual_machines" ("uuid", "offering_uuid", "order_uuid", "resource_uuid",
           "backend_uuid", "moref", "name", "cpu", "cores_per_socket", "ram", "disk", "runtime_state")
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1, 1, 1024, 0, 'POWERED_OFF')`,
        [vm, randomUUID(), randomUUID(), randomUUID(), randomUUID(), `vm-${i}`, `claims-${i}`],
      );
    }
    const queued: string[] = [];
    for (let round = 0; round < 5; round++)
      for (const vm of vms)
        queued.push(
          (
            await first.transaction((tx) =>
              repo.create(tx, { vmRowUuid: vm, kind: 'pull', requestedBy: null }),
            )
          ).uuid,
        );

    const running = new Map<string, string>();
    const runs: { vm: string; op: string }[] = [];
    const overlaps: string[] = [];
    const worker = async (pool: DataSource, instance: string): Promise<void> => {
      const own = new VmOperationRepository(pool);
      for (;;) {
        const claimed = await own.claimNext(instance, 60_000);
        if (claimed === 'contended') continue;
        if (claimed === null) {
          const [{ n }]: { n: number }[] = await pool.query(
            `SELECT count(*)::int AS "n" FROM "vsphere"."vm_operations" WHERE "state" <> 'done'`,
          );
          if (n === 0) return;
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        const vm = claimed.queued.vmRowUuid;
        if (running.has(vm)) overlaps.push(`${running.get(vm)} and ${claimed.view.uuid}`);
        running.set(vm, claimed.view.uuid);
        runs.push({ vm, op: claimed.view.uuid });
        await new Promise((resolve) => setTimeout(resolve, 2));
        running.delete(vm);
        await pool.transaction((tx) =>
          own.finish(tx, claimed.view.uuid, instance, { state: 'done', errorMessage: '' }),
        );
      }
    };
    await Promise.all([
      worker(pools[0], 'a-1'),
      worker(pools[0], 'a-2'),
      worker(pools[1], 'b-1'),
      worker(pools[1], 'b-2'),
    ]);

    expect(overlaps).toEqual([]);
    expect(runs.map((r) => r.op).sort()).toEqual([...queued].sort());
    for (const vm of vms)
      expect(runs.filter((r) => r.vm === vm).map((r) => r.op)).toEqual(
        queued.filter((_, i) => vms[i % vms.length] === vm),
      );
  });
});
