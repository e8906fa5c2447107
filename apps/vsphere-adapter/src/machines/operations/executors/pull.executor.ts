import { Injectable } from '@nestjs/common';
import type { VmOperationKind } from '@app/contracts';
import type { OperationResult, VmOperationExecutor } from '../vm-operation-executor';

/** pull: nothing to do on vCenter; the runner's read-back after every operation is the pull. */
@Injectable()
export class PullExecutor implements VmOperationExecutor {
  readonly kinds: readonly VmOperationKind[] = ['pull'];

  execute(): Promise<OperationResult> {
    return Promise.resolve({});
  }
}
