import { randomUUID } from 'node:crypto';
import type { VmOperationKind, VmOperationView } from '@app/contracts';
import { VcenterAccessService } from '../../src/integration/services/vcenter-access.service';
import {
  type OperationResult,
  type QueuedOperation,
  type VmOperationExecutor,
} from '../../src/machines/operations/vm-operation-executor';
import { VmOperationQueue, type NewOperation } from '../../src/machines/operations/vm-operation-queue';
import { DEVICE_EXECUTORS } from '../../src/machines/operations/devices/device-executors';
import { PlacementRepository } from '../../src/machines/repositories/placement.repository';
import { VmDeviceRepository } from '../../src/machines/repositories/vm-device.repository';
import { VmDeviceReconciler } from '../../src/machines/repositories/vm-device-reconciler';
import { VmDevicesService } from '../../src/machines/services/vm-devices.service';
import { UnitOfWork, type Tx } from '../../src/repositories/unit-of-work';
import { VM_PROVISIONER, type VmProvisioner } from '../../src/vcenter/ports/vm-provisioner.port';
import type { AdapterInstance } from './adapter-harness';

/**
 * The queue as this branch's tests need it before the operation runner exists: the operation is
 * recorded in `vm_operations` (the real table) and run by `runOperation` when the test says so.
 * Replaced by the real queue and runner once they are merged (see vm-devices-concurrency).
 */
export class RecordingQueue extends VmOperationQueue {
  async enqueue(tx: Tx, operation: NewOperation): Promise<VmOperationView> {
    const uuid = randomUUID();
    const [row]: { created: Date; backend_uuid: string }[] = await tx.query(
      `INSERT INTO "vsphere"."vm_operations" ("uuid", "vm_uuid", "kind", "params", "disk_uuid", "port_uuid", "requested_by")
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING "created", (SELECT "backend_uuid" FROM "vsphere"."virtual_machines" WHERE "uuid" = $2) AS "backend_uuid"`,
      [
        uuid,
        operation.vmRowUuid,
        operation.kind,
        JSON.stringify(operation.params ?? {}),
        operation.diskUuid ?? null,
        operation.portUuid ?? null,
        operation.requestedBy,
      ],
    );
    return {
      uuid,
      status: `${operation.kind} was scheduled`,
      operation: operation.kind,
      vm_uuid: row.backend_uuid,
      state: 'pending',
      error_message: '',
      disk_uuid: operation.diskUuid ?? null,
      port_uuid: operation.portUuid ?? null,
      created: row.created.toISOString(),
    };
  }

  wake(): void {}
}

/** The device request service of a running adapter, on the recording queue. */
export function devicesService(adapter: AdapterInstance): VmDevicesService {
  const get = <T>(token: abstract new (...args: never[]) => T): T =>
    adapter.app.get(token, { strict: false });
  return new VmDevicesService(
    get(VmDeviceRepository),
    get(VcenterAccessService),
    new RecordingQueue(),
    get(UnitOfWork),
  );
}

/** The executor registered for `kind` among the device executors the adapter provides. */
function executorFor(adapter: AdapterInstance, kind: VmOperationKind): VmOperationExecutor {
  const executors: VmOperationExecutor[] = DEVICE_EXECUTORS.map((type) =>
    adapter.app.get(type, { strict: false }),
  );
  const found = executors.find((e) => e.kinds.includes(kind));
  if (found === undefined) throw new Error(`no executor for ${kind}`);
  return found;
}

/**
 * Runs a recorded operation as the runner will: its executor against vCenter, then the read-back
 * recorded through the reconciler (the created device claimed by the row the request inserted) and
 * the device OK. A throw is returned for the test to assert on, the device then left as it was.
 */
export async function runOperation(
  adapter: AdapterInstance,
  operationUuid: string,
): Promise<{ result?: OperationResult; error?: unknown }> {
  const ds = adapter.runtime.dataSource;
  const [op]: {
    kind: VmOperationKind;
    params: Record<string, unknown>;
    disk_uuid: string | null;
    port_uuid: string | null;
    vm_uuid: string;
    backend_uuid: string;
    offering_uuid: string;
    moref: string;
  }[] = await ds.query(
    `SELECT o."kind", o."params", o."disk_uuid", o."port_uuid", o."vm_uuid", v."backend_uuid", v."offering_uuid", v."moref"
     FROM "vsphere"."vm_operations" o JOIN "vsphere"."virtual_machines" v ON v."uuid" = o."vm_uuid" WHERE o."uuid" = $1`,
    [operationUuid],
  );
  const operation: QueuedOperation = {
    uuid: operationUuid,
    kind: op.kind,
    params: op.params,
    vmBackendUuid: op.backend_uuid,
    vmRowUuid: op.vm_uuid,
    offeringUuid: op.offering_uuid,
    moref: op.moref,
    diskUuid: op.disk_uuid,
    portUuid: op.port_uuid,
  };
  const access = await adapter.app.get(VcenterAccessService, { strict: false }).forOffering(op.offering_uuid);
  const connection = await access!.connection();
  const options = { signal: AbortSignal.timeout(60_000), timeoutMs: 60_000 };
  const context = { operation, connection, short: options, long: options };
  let result: OperationResult;
  try {
    result = await executorFor(adapter, op.kind).execute(context);
  } catch (error) {
    await ds.query(
      `UPDATE "vsphere"."vm_operations" SET "state" = 'erred', "finished" = now() WHERE "uuid" = $1`,
      [operationUuid],
    );
    return { error };
  }
  const vcenter = adapter.app.get<VmProvisioner>(VM_PROVISIONER, { strict: false });
  const after = await vcenter.read(connection, op.moref, options);
  const networks = await adapter.app
    .get(PlacementRepository, { strict: false })
    .networksByBackendId(op.offering_uuid);
  const reconciler = adapter.app.get(VmDeviceReconciler, { strict: false });
  const devices = adapter.app.get(VmDeviceRepository, { strict: false });
  await adapter.app.get(UnitOfWork, { strict: false }).run(async (tx) => {
    const table = op.disk_uuid !== null ? 'disk' : 'port';
    const device = op.disk_uuid ?? op.port_uuid;
    await reconciler.reconcile(
      tx,
      op.vm_uuid,
      after!,
      networks,
      result.createdDeviceKey === undefined || device === null
        ? undefined
        : { table, uuid: device, deviceKey: result.createdDeviceKey },
    );
    if (device !== null) await devices.setState(tx, table, device, 'OK');
    await tx.query(
      `UPDATE "vsphere"."vm_operations" SET "state" = 'done', "finished" = now() WHERE "uuid" = $1`,
      [operationUuid],
    );
  });
  return { result };
}
