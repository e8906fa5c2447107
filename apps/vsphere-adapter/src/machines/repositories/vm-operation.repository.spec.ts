import { VM_OPERATION_KINDS } from '@app/contracts';
import { NOT_REPEATABLE, scheduledStatus } from './vm-operation.repository';

describe('the operation queue rules', () => {
  it("answers Waldur's status for every kind", () => {
    expect(scheduledStatus('start')).toBe('start was scheduled');
    expect(scheduledStatus('shutdown_guest')).toBe('shutdown_guest was scheduled');
  });

  it('repeats every operation after a crash but those that create a device or snapshot (a repeat would make a second one)', () => {
    expect(NOT_REPEATABLE).toEqual(['create_disk', 'create_port', 'create_snapshot']);
    const repeated = VM_OPERATION_KINDS.filter((k) => !NOT_REPEATABLE.includes(k));
    expect(repeated).toEqual(
      expect.arrayContaining([
        'start',
        'update',
        'pull',
        'extend_disk',
        'delete_disk',
        'delete_port',
        'revert_snapshot',
        'delete_snapshot',
      ]),
    );
  });
});
