import { CreateDiskExecutor } from './create-disk.executor';
import { CreatePortExecutor } from './create-port.executor';
import { DeleteDiskExecutor, DeletePortExecutor } from './delete-device.executor';
import { ExtendDiskExecutor } from './extend-disk.executor';

/**
 * The executors of the disk and adapter operations, provided in MachinesModule as classes; each
 * belongs in the VM_OPERATION_EXECUTORS array the runner takes.
 */
export const DEVICE_EXECUTORS = [
  CreateDiskExecutor,
  ExtendDiskExecutor,
  DeleteDiskExecutor,
  CreatePortExecutor,
  DeletePortExecutor,
] as const;
