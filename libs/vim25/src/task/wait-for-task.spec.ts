import { replyOf, ScriptedCaller } from '../../test/support/fixture-caller';
import { VimFault, VimTransportError } from '../soap/vim-errors';
import { waitForTask } from './wait-for-task';

const collector = { type: 'PropertyCollector', value: 'propertyCollector' };
const task = { ref: { type: 'Task', value: 'task-69' }, operation: 'PowerOffVM_Task' };
const privateCollector = {
  status: 200 as const,
  body: replyOf('23-CreateFilter-task.response.xml')
    .body.replace(/CreateFilter/g, 'CreatePropertyCollector')
    .replace('type="PropertyFilter"', 'type="PropertyCollector"'),
};
const done = {
  status: 200 as const,
  body: replyOf('08-ShutdownGuest.response.xml').body.replace(/ShutdownGuest/g, 'DestroyPropertyCollector'),
};

function scripted(...waits: ReturnType<typeof replyOf>[]): ScriptedCaller {
  return new ScriptedCaller()
    .on('CreatePropertyCollector', privateCollector)
    .on('CreateFilter', replyOf('23-CreateFilter-task.response.xml'))
    .on('WaitForUpdatesEx', ...waits)
    .on('DestroyPropertyCollector', done);
}

describe('waitForTask', () => {
  it('returns when WaitForUpdatesEx pushes info.state success, on a private collector it then destroys', async () => {
    const caller = scripted(
      replyOf('WaitForUpdatesEx-empty.response.xml'),
      replyOf('24-WaitForUpdatesEx.response.xml'),
    );
    await expect(waitForTask(caller, collector, task)).resolves.toBeUndefined();
    expect(caller.operations()).toEqual([
      'CreatePropertyCollector',
      'CreateFilter',
      'WaitForUpdatesEx',
      'WaitForUpdatesEx',
      'DestroyPropertyCollector',
    ]);
    const pc = 'session[077f561b-1b6c-4b5a-a7a4-5fa09ed8813a]9c98bdea-42c1-4e40-881d-22b6ed88471a';
    expect(caller.calls[1].envelope).toContain(`<_this type="PropertyCollector">${pc}</_this>`);
    expect(caller.calls[1].envelope).toContain('<obj type="Task">task-69</obj>');
    expect(caller.calls[2].envelope).toContain('<version></version>');
    expect(caller.calls[4].envelope).toContain(pc);
  });

  it('raises the task error as VimFault with the fault type and the localized message', async () => {
    const caller = scripted(replyOf('WaitForUpdatesEx-task-error.response.xml'));
    const err = await waitForTask(caller, collector, task).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VimFault);
    expect(err).toMatchObject({
      operation: 'PowerOffVM_Task',
      faultType: 'InvalidPowerState',
      message: '*types.InvalidPowerState',
    });
    expect(caller.operations()).toContain('DestroyPropertyCollector');
  });

  it('starts over once when a re-login dropped the private collector (ManagedObjectNotFound)', async () => {
    const lost = {
      status: 500 as const,
      body: replyOf('09-ShutdownGuest-fault.response.xml')
        .body.replace(
          '<faultstring></faultstring>',
          '<faultstring>The object has already been deleted or has not been completely created</faultstring>',
        )
        .replace(/InvalidPowerState/g, 'ManagedObjectNotFound'),
    };
    const caller = scripted(lost, replyOf('24-WaitForUpdatesEx.response.xml'))
      .on('CreatePropertyCollector', privateCollector)
      .on('CreateFilter', replyOf('23-CreateFilter-task.response.xml'))
      .on('DestroyPropertyCollector', done);
    await expect(waitForTask(caller, collector, task)).resolves.toBeUndefined();
    expect(caller.operations()).toEqual([
      'CreatePropertyCollector',
      'CreateFilter',
      'WaitForUpdatesEx',
      'DestroyPropertyCollector',
      'CreatePropertyCollector',
      'CreateFilter',
      'WaitForUpdatesEx',
      'DestroyPropertyCollector',
    ]);
  });

  it('times out with a typed error and still destroys the collector', async () => {
    const caller = scripted(
      ...Array.from({ length: 50 }, () => replyOf('WaitForUpdatesEx-empty.response.xml')),
    );
    // Every empty wait takes 20 ms, so a 100 ms deadline passes after a few.
    const delayed = {
      call: async (op: string, env: string, o?: Parameters<ScriptedCaller['call']>[2]) => {
        if (op === 'WaitForUpdatesEx') await new Promise((r) => setTimeout(r, 20));
        return caller.call(op, env, o);
      },
    };
    const err = await waitForTask(delayed, collector, task, { timeoutMs: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VimTransportError);
    expect(err).toMatchObject({ kind: 'timeout', operation: 'WaitForUpdatesEx' });
    expect(caller.operations().at(-1)).toBe('DestroyPropertyCollector');
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    const caller = scripted(
      ...Array.from({ length: 5 }, () => replyOf('WaitForUpdatesEx-empty.response.xml')),
    );
    const aborting = {
      call: (op: string, env: string, o?: Parameters<ScriptedCaller['call']>[2]) => {
        if (op === 'WaitForUpdatesEx') controller.abort();
        return caller.call(op, env, o);
      },
    };
    await expect(waitForTask(aborting, collector, task, { signal: controller.signal })).rejects.toMatchObject(
      { kind: 'aborted' },
    );
  });
});
