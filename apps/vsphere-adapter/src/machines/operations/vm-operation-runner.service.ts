import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { VmOperationKind, VmOperationView } from '@app/contracts';
import type { Logger } from '@app/platform';
import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { LOGGER } from '../../adapters/runtime-providers';
import { CONFIG, type VsphereAdapterConfig } from '../../config/vsphere-adapter.config';
import { CredentialCipherError } from '../../integration/domain/credential-cipher';
import { describeVcenterError } from '../../integration/domain/vcenter-error-message';
import { IncompleteCredentialsError } from '../../integration/domain/vcenter-connection';
import { VcenterAccessService } from '../../integration/services/vcenter-access.service';
import { UnitOfWork } from '@app/messaging';
import {
  DeviceChangeImpossible,
  VM_PROVISIONER,
  type RemoteVm,
  type VmProvisioner,
} from '../../vcenter/ports/vm-provisioner.port';
import { PlacementRepository } from '../repositories/placement.repository';
import { VmOperationRepository, type ClaimedOperation } from '../repositories/vm-operation.repository';
import { VmRecordService, type FailureTarget } from '../services/vm-record.service';
import { VmOperationMetrics } from '../../metrics/vm-operation-metrics';
import { GuestTimedOut, VmGone } from './operation-failures';
import {
  OperationRefused,
  VM_OPERATION_EXECUTORS,
  type OperationResult,
  type VmOperationExecutor,
} from './vm-operation-executor';

export const TAKEN_OVER =
  'The adapter stopped during this operation; the virtual machine was pulled from vCenter.';
const NOT_CONNECTED = 'The offering of this virtual machine is not connected to a vCenter.';

const DEVICE_KINDS: readonly VmOperationKind[] = [
  'create_disk',
  'extend_disk',
  'delete_disk',
  'create_port',
  'delete_port',
];

interface Executed {
  readonly result: OperationResult;
  readonly remote: RemoteVm;
}

/** What vCenter (or reaching it) refused: ends the operation erred with the message. Anything else is ours. */
function isVcenterFailure(error: unknown): boolean {
  return (
    error instanceof GuestTimedOut ||
    error instanceof VimFault ||
    error instanceof DeviceChangeImpossible ||
    error instanceof VapiError ||
    error instanceof VimTransportError ||
    error instanceof IncompleteCredentialsError ||
    error instanceof CredentialCipherError
  );
}

/** Where the message of a failed operation goes: its disk or adapter for device operations, else the VM. */
function targetOf(operation: ClaimedOperation['queued']): FailureTarget {
  if (!DEVICE_KINDS.includes(operation.kind)) return { kind: 'vm' };
  if (operation.diskUuid !== null) return { kind: 'device', table: 'disk', uuid: operation.diskUuid };
  if (operation.portUuid !== null) return { kind: 'device', table: 'port', uuid: operation.portUuid };
  return { kind: 'vm' };
}

/**
 * Where a refusal goes: nowhere, except a device that was to be created (its row has no device:
 * Erred with the reason, for Destroy); the device of an extend or delete is OK again.
 */
function refusalTarget(operation: ClaimedOperation['queued']): FailureTarget {
  const device = targetOf(operation);
  if (device.kind !== 'device') return { kind: 'none' };
  if (operation.kind === 'create_disk' || operation.kind === 'create_port') return device;
  return { kind: 'none', device: { table: device.table, uuid: device.uuid } };
}

/**
 * Runs the queued operations: claims the oldest pending one of any VM with none running, up to
 * VM_OPERATION_CONCURRENCY at once across VMs, renews its lease while it runs, and records the
 * outcome with the VM read back from vCenter. Woken on enqueue here and polled for other
 * instances' work; takes over operations whose lease expired (an instance that crashed). Our own
 * failures (Postgres) end nothing: the operation stays running and is taken over after its lease.
 */
@Injectable()
export class VmOperationRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly instance = `vsphere-adapter-${randomUUID()}`;
  private readonly running = new Map<string, Promise<void>>();
  private readonly byKind = new Map<VmOperationKind, VmOperationExecutor>();
  private readonly stop = new AbortController();
  private pumping: Promise<void> | null = null;
  private again = false;
  private pollTimer?: NodeJS.Timeout;
  private takeoverTimer?: NodeJS.Timeout;

  constructor(
    @Inject(CONFIG) private readonly config: VsphereAdapterConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VM_OPERATION_EXECUTORS) executors: VmOperationExecutor[],
    @Inject(VM_PROVISIONER) private readonly vcenter: VmProvisioner,
    private readonly operations: VmOperationRepository,
    private readonly access: VcenterAccessService,
    private readonly placement: PlacementRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly recorder: VmRecordService,
    private readonly metrics: VmOperationMetrics,
  ) {
    for (const executor of executors) for (const kind of executor.kinds) this.byKind.set(kind, executor);
  }

  onApplicationBootstrap(): void {
    this.pollTimer = setInterval(() => this.wake(), this.config.VSPHERE_OPERATION_POLL_MS);
    this.pollTimer.unref();
    const takeoverEvery = Math.max(1_000, Math.floor(this.config.VSPHERE_OPERATION_LEASE_MS / 2));
    this.takeoverTimer = setInterval(() => void this.takeOver(), takeoverEvery);
    this.takeoverTimer.unref();
    void this.takeOver();
  }

  /** Stops claiming, aborts the running operations' vCenter calls and gives them back to the queue. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pollTimer);
    clearInterval(this.takeoverTimer);
    this.stop.abort(new Error('the vSphere adapter is stopping'));
    await this.pumping;
    await Promise.allSettled([...this.running.values()]);
  }

  /** Look for work now (after an enqueue was committed, or on the poll). */
  wake(): void {
    if (this.stop.signal.aborted) return;
    if (this.pumping !== null) {
      this.again = true;
      return;
    }
    this.pumping = this.pump()
      .catch((error: unknown) => this.logger.error({ err: error }, 'claiming VM operations failed'))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async pump(): Promise<void> {
    while (!this.stop.signal.aborted && this.running.size < this.config.VM_OPERATION_CONCURRENCY) {
      const claimed = await this.operations.claimNext(this.instance, this.config.VSPHERE_OPERATION_LEASE_MS);
      if (claimed === 'contended') continue;
      if (claimed === null) return;
      const run = this.run(claimed)
        .catch((error: unknown) =>
          this.logger.error(
            { err: error, operation: claimed.view.uuid },
            'VM operation left running: it is taken over after its lease',
          ),
        )
        .finally(() => {
          this.running.delete(claimed.view.uuid);
          this.wake();
        });
      this.running.set(claimed.view.uuid, run);
    }
  }

  private async run(claimed: ClaimedOperation): Promise<void> {
    const { queued } = claimed;
    const renew = setInterval(
      () =>
        void this.operations
          .renewLease(queued.uuid, this.instance, this.config.VSPHERE_OPERATION_LEASE_MS)
          .catch((error: unknown) => this.logger.warn({ err: error }, 'renewing an operation lease failed')),
      Math.max(500, Math.floor(this.config.VSPHERE_OPERATION_LEASE_MS / 3)),
    );
    const took = this.metrics.operationSeconds.startTimer({ kind: queued.kind });
    try {
      await this.unitOfWork.run((tx) =>
        this.recorder.markUpdating(tx, queued.vmRowUuid, { ...claimed.view, state: 'running' }),
      );
      this.recorder.wake();
      let outcome: { ok: true; done: Executed } | { ok: false; error: unknown };
      try {
        outcome = { ok: true, done: await this.execute(claimed) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      if (this.stop.signal.aborted) {
        await this.operations.release(queued.uuid, this.instance);
        return;
      }
      if (outcome.ok) await this.succeed(claimed, outcome.done);
      else await this.fail(claimed, outcome.error);
      took({ outcome: outcome.ok ? 'done' : 'erred' });
      this.recorder.wake();
    } finally {
      clearInterval(renew);
    }
  }

  /** Carries the operation out and reads the VM back from vCenter. */
  private async execute(claimed: ClaimedOperation): Promise<Executed> {
    const { queued } = claimed;
    const executor = this.byKind.get(queued.kind);
    if (executor === undefined) throw new OperationRefused(`This adapter cannot ${queued.kind} yet.`);
    const access = await this.access.forOffering(queued.offeringUuid);
    if (access === null) throw new OperationRefused(NOT_CONNECTED);
    const connection = await access.connection();
    const signal = AbortSignal.any([
      this.stop.signal,
      AbortSignal.timeout(this.config.VSPHERE_DEPLOY_TIMEOUT_MS + this.config.VSPHERE_GUEST_POWER_TIMEOUT_MS),
    ]);
    const short = { signal, timeoutMs: this.config.VSPHERE_CALL_TIMEOUT_MS };
    const long = { signal, timeoutMs: this.config.VSPHERE_DEPLOY_TIMEOUT_MS };
    const result = await executor.execute({ operation: queued, connection, short, long });
    const remote = await this.vcenter.read(connection, queued.moref, short);
    if (remote === undefined) throw new VmGone();
    return { result, remote };
  }

  private async succeed(claimed: ClaimedOperation, { result, remote }: Executed): Promise<void> {
    const { queued } = claimed;
    const networks = await this.placement.networksByBackendId(queued.offeringUuid);
    const claim =
      result.createdDeviceKey === undefined
        ? undefined
        : queued.diskUuid !== null
          ? { table: 'disk' as const, uuid: queued.diskUuid, deviceKey: result.createdDeviceKey }
          : queued.portUuid !== null
            ? { table: 'port' as const, uuid: queued.portUuid, deviceKey: result.createdDeviceKey }
            : undefined;
    await this.unitOfWork.run(async (tx) => {
      const view = await this.operations.finish(tx, queued.uuid, this.instance, {
        state: 'done',
        errorMessage: '',
      });
      await this.recorder.recordRemote(tx, queued.vmRowUuid, remote, networks, view, { claim });
    });
  }

  private async fail(claimed: ClaimedOperation, error: unknown): Promise<void> {
    const { queued } = claimed;
    let message: string;
    let target: FailureTarget;
    if (error instanceof OperationRefused) {
      message = error.message;
      target = refusalTarget(queued);
    } else if (error instanceof VmGone) {
      message = error.message;
      target = { kind: 'vm' };
    } else if (isVcenterFailure(error)) {
      message = describeVcenterError(error);
      target = targetOf(queued);
    } else throw error;
    await this.unitOfWork.run(async (tx) => {
      const view: VmOperationView = await this.operations.finish(tx, queued.uuid, this.instance, {
        state: 'erred',
        errorMessage: message,
      });
      await this.recorder.recordFailure(tx, queued.vmRowUuid, view, message, target);
      // A device refused for vCenter's live state (removed there): a pull records that state.
      if (target.kind === 'none' && target.device !== undefined)
        await this.operations.create(tx, { vmRowUuid: queued.vmRowUuid, kind: 'pull', requestedBy: null });
    });
    if (target.kind === 'none' && target.device !== undefined) this.wake();
  }

  /**
   * Operations of instances that stopped renewing their lease: the repeatable ones go back to the
   * queue (their executors re-check vCenter first); a device creation is ended erred and the VM
   * pulled, so a device vCenter made meanwhile is recorded once, never made twice.
   */
  private async takeOver(): Promise<void> {
    if (this.stop.signal.aborted) return;
    try {
      await this.unitOfWork.run(async (tx) => {
        for (const ended of await this.operations.takeOverExpired(tx)) {
          const view = await this.operations.endTakenOver(tx, ended.view.uuid, TAKEN_OVER);
          const target = targetOf(ended.queued);
          await this.recorder.recordFailure(tx, ended.queued.vmRowUuid, view, TAKEN_OVER, target);
          await this.operations.create(tx, {
            vmRowUuid: ended.queued.vmRowUuid,
            kind: 'pull',
            requestedBy: null,
          });
        }
      });
      this.recorder.wake();
      this.wake();
    } catch (error) {
      this.logger.error({ err: error }, 'taking over expired VM operations failed');
    }
  }
}
