import { VM_SIZES_PAGE_MAX, type VmSize } from '@app/contracts';
import type { UnitOfWork } from '../../identity';
import type { ObservedChange } from '../domain/observed-limits';
import type { EventOutbox } from '../repositories/event-outbox.repository';
import type { VmSizesPort } from '../ports/vm-sizes.port';
import type { VmLimitsService } from './vm-limits.service';

/** What a recount found: the VMs it compared and the resources whose figures differed. */
export interface RecountReport {
  readonly checked: number;
  readonly changed: ({ readonly resource_uuid: string } & ObservedChange)[];
  readonly dry_run: boolean;
}

/** The adapter did not give the VMs' sizes: nothing after the failure was compared. */
export class RecountFailedError extends Error {}

/** Carries a dry run's change out of the transaction it rolls back. */
class DryRunRollback extends Error {
  constructor(readonly change: ObservedChange | null) {
    super('dry run');
  }
}

/**
 * `npm run quotas:recount`: the repair for usage that drifted from the VMs (a VmChanged lost or
 * misapplied, a manual SQL edit). Usage is computed from the resources' limits and backend_gone, so
 * those are what it checks: each VM the adapter recorded is taken into its resource by the rule and
 * the code a VmChanged uses (`VmLimitsService.observe`), one transaction per resource under its row
 * lock, with its ResourceStateChanged. A dry run goes the same way and rolls each transaction back.
 * On a healthy system it changes nothing.
 */
export class QuotaRecountService {
  constructor(
    private readonly sizes: VmSizesPort,
    private readonly limits: VmLimitsService,
    private readonly uow: UnitOfWork,
    private readonly events: EventOutbox,
  ) {}

  async recount({ dryRun }: { dryRun: boolean }): Promise<RecountReport> {
    const changed: RecountReport['changed'][number][] = [];
    let checked = 0;
    let after: string | null = null;
    do {
      const reply = await this.sizes.page(after, VM_SIZES_PAGE_MAX);
      if (reply.status !== 'ok')
        throw new RecountFailedError(
          `the vsphere-adapter did not give the VMs' sizes (${reply.code}): ${reply.detail ?? JSON.stringify(reply.fields)}`,
        );
      const readAt = new Date(reply.data.read_at);
      for (const vm of reply.data.vms) {
        checked += 1;
        const change = await this.take(vm, readAt, dryRun);
        if (change !== null) changed.push({ resource_uuid: vm.marketplace_resource_uuid, ...change });
      }
      after = reply.data.next;
    } while (after !== null);
    if (!dryRun && changed.length > 0) this.events.wake();
    return { checked, changed, dry_run: dryRun };
  }

  private async take(vm: VmSize, readAt: Date, dryRun: boolean): Promise<ObservedChange | null> {
    try {
      return await this.uow.run(async (tx) => {
        const change = await this.limits.observe(tx, vm.marketplace_resource_uuid, vm, readAt, {
          latest: false,
        });
        if (dryRun) throw new DryRunRollback(change);
        return change;
      });
    } catch (error) {
      if (error instanceof DryRunRollback) return error.change;
      throw error;
    }
  }
}
