import { Injectable } from '@nestjs/common';
import type { VmOperationView } from '@app/contracts';
import type { Transaction } from '@app/messaging';
import { VmOperationRepository } from '../repositories/vm-operation.repository';
import { VmOperationRunner } from './vm-operation-runner.service';
import { VmOperationQueue, type NewOperation } from './vm-operation-queue';

/** The queue over `vsphere.vm_operations`: stored in the caller's transaction, run by the runner. */
@Injectable()
export class DurableVmOperationQueue extends VmOperationQueue {
  constructor(
    private readonly operations: VmOperationRepository,
    private readonly runner: VmOperationRunner,
  ) {
    super();
  }

  enqueue(tx: Transaction, operation: NewOperation): Promise<VmOperationView> {
    return this.operations.create(tx, operation);
  }

  wake(): void {
    this.runner.wake();
  }
}
