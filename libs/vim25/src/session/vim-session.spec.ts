import { fixture, replyOf, ScriptedCaller } from '../../test/support/fixture-caller';
import type { SoapReply } from '../soap/soap-transport';
import { VimFault } from '../soap/vim-errors';
import { retrieveAll } from '../property/retrieve';
import { powerOnVmTask } from '../methods/virtual-machine';
import { VimSession } from './vim-session';
import { isNotAuthenticatedReply } from './not-authenticated';

class FakeTransport extends ScriptedCaller {
  readonly sdkUrl = new URL('https://vc.example:8443/sdk');
  closed = false;
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

const options = { url: 'https://vc.example:8443', username: 'user', password: 'pass', keepAliveMs: 0 };
const login = (cookie: string): SoapReply => replyOf('02-Login.response.xml', cookie);
const collector = { type: 'PropertyCollector', value: 'propertyCollector' };
const spec = {
  propSet: [{ type: 'VirtualMachine', pathSet: ['name'] }],
  objectSet: [{ obj: { type: 'VirtualMachine', value: 'vm-57' } }],
};

describe('VimSession', () => {
  it('logs in once for many concurrent callers and sends the cookie', async () => {
    const transport = new FakeTransport()
      .on('RetrieveServiceContent', replyOf('01-RetrieveServiceContent.response.xml'))
      .on('Login', login('c1'));
    for (let i = 0; i < 20; i++) transport.on('PowerOnVM_Task', replyOf('05-PowerOffVM_Task.response.xml'));
    const session = new VimSession(options, transport);
    await Promise.all(
      Array.from({ length: 20 }, () => powerOnVmTask(session, { type: 'VirtualMachine', value: 'vm-57' })),
    );
    expect(transport.operations().filter((o) => o === 'Login')).toHaveLength(1);
    expect(session.loginCount).toBe(1);
    expect(
      transport.calls
        .filter((c) => c.operation === 'PowerOnVM_Task')
        .every((c) => c.options?.cookie === 'c1'),
    ).toBe(true);
    expect(transport.calls.find((c) => c.operation === 'Login')?.envelope).toContain(
      '<userName>user</userName><password>pass</password>',
    );
  });

  it('logs in again and replays the call on a NotAuthenticated fault', async () => {
    const transport = new FakeTransport()
      .on('RetrieveServiceContent', replyOf('01-RetrieveServiceContent.response.xml'))
      .on('Login', login('c1'), login('c2'))
      .on(
        'PowerOnVM_Task',
        replyOf('20-PowerOnVM_Task-no-session.response.xml'),
        replyOf('05-PowerOffVM_Task.response.xml'),
      );
    const session = new VimSession(options, transport);
    await expect(powerOnVmTask(session, { type: 'VirtualMachine', value: 'vm-60' })).resolves.toEqual({
      type: 'Task',
      value: 'task-68',
    });
    expect(transport.operations()).toEqual([
      'RetrieveServiceContent',
      'Login',
      'PowerOnVM_Task',
      'Login',
      'PowerOnVM_Task',
    ]);
    expect(transport.calls[4].options?.cookie).toBe('c2');
  });

  it('logs in again on the missingSet form of RetrievePropertiesEx', async () => {
    const transport = new FakeTransport()
      .on('RetrieveServiceContent', replyOf('01-RetrieveServiceContent.response.xml'))
      .on('Login', login('c1'), login('c2'))
      .on(
        'RetrievePropertiesEx',
        replyOf('19-RetrievePropertiesEx-no-session.response.xml'),
        replyOf('04-RetrievePropertiesEx-vms.response.xml'),
      );
    const session = new VimSession(options, transport);
    const objects = await retrieveAll(session, collector, [spec]);
    expect(objects).toHaveLength(4);
    expect(session.loginCount).toBe(2);
  });

  it('gives up with NotAuthenticated when a fresh login does not help', async () => {
    const transport = new FakeTransport()
      .on('RetrieveServiceContent', replyOf('01-RetrieveServiceContent.response.xml'))
      .on('Login', login('c1'), login('c2'))
      .on(
        'RetrievePropertiesEx',
        replyOf('19-RetrievePropertiesEx-no-session.response.xml'),
        replyOf('19-RetrievePropertiesEx-no-session.response.xml'),
      );
    const session = new VimSession(options, transport);
    await expect(retrieveAll(session, collector, [spec])).rejects.toMatchObject({
      faultType: 'NotAuthenticated',
      operation: 'RetrievePropertiesEx',
    });
  });

  it('passes InvalidLogin to every waiting caller and tries again on the next call', async () => {
    const transport = new FakeTransport()
      .on('RetrieveServiceContent', replyOf('01-RetrieveServiceContent.response.xml'))
      .on('Login', replyOf('21-Login-InvalidLogin.response.xml'), login('c1'))
      .on('PowerOnVM_Task', replyOf('05-PowerOffVM_Task.response.xml'));
    const session = new VimSession(options, transport);
    const vm = { type: 'VirtualMachine', value: 'vm-57' };
    const results = await Promise.allSettled([powerOnVmTask(session, vm), powerOnVmTask(session, vm)]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(VimFault);
      expect((r as PromiseRejectedResult).reason).toMatchObject({
        faultType: 'InvalidLogin',
        message: 'Login failure',
      });
    }
    await expect(powerOnVmTask(session, vm)).resolves.toEqual({ type: 'Task', value: 'task-68' });
  });

  it('logs out on close and refuses later calls', async () => {
    const transport = new FakeTransport()
      .on('RetrieveServiceContent', replyOf('01-RetrieveServiceContent.response.xml'))
      .on('Login', login('c1'))
      .on('Logout', { status: 200, body: fixture('08-ShutdownGuest.response.xml') });
    const session = new VimSession(options, transport);
    await session.ensureLoggedIn();
    await session.close();
    expect(transport.operations()).toEqual(['RetrieveServiceContent', 'Login', 'Logout']);
    expect(transport.calls[2].options?.cookie).toBe('c1');
    expect(transport.closed).toBe(true);
    await expect(powerOnVmTask(session, { type: 'VirtualMachine', value: 'vm-57' })).rejects.toThrow(
      /session .* is closed/,
    );
  });
});

describe('isNotAuthenticatedReply', () => {
  it('recognises the fault and the missingSet forms only', () => {
    expect(
      isNotAuthenticatedReply('PowerOnVM_Task', replyOf('20-PowerOnVM_Task-no-session.response.xml')),
    ).toBe(true);
    expect(
      isNotAuthenticatedReply(
        'RetrievePropertiesEx',
        replyOf('19-RetrievePropertiesEx-no-session.response.xml'),
      ),
    ).toBe(true);
    expect(
      isNotAuthenticatedReply('RetrievePropertiesEx', replyOf('04-RetrievePropertiesEx-vms.response.xml')),
    ).toBe(false);
    expect(isNotAuthenticatedReply('Login', replyOf('21-Login-InvalidLogin.response.xml'))).toBe(false);
  });
});

describe('VimSession keep-alive', () => {
  it('calls CurrentTime through the session on its interval', async () => {
    const transport = new FakeTransport()
      .on('RetrieveServiceContent', replyOf('01-RetrieveServiceContent.response.xml'))
      .on('Login', login('c1'))
      .on(
        'CurrentTime',
        ...Array.from({ length: 20 }, () => ({
          status: 200 as const,
          body: fixture('08-ShutdownGuest.response.xml').replace(/ShutdownGuest/g, 'CurrentTime'),
        })),
      )
      .on('Logout', { status: 200, body: fixture('08-ShutdownGuest.response.xml') });
    const session = new VimSession({ ...options, keepAliveMs: 10 }, transport);
    await session.ensureLoggedIn();
    // Waits for the ticks rather than a fixed time: on a loaded machine 60 ms may hold only one.
    const keepAlivesSoFar = () => transport.calls.filter((c) => c.operation === 'CurrentTime');
    for (let waited = 0; keepAlivesSoFar().length < 2 && waited < 5_000; waited += 10) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await session.close();
    const keepAlives = keepAlivesSoFar();
    expect(keepAlives.length).toBeGreaterThanOrEqual(2);
    expect(keepAlives.every((c) => c.options?.cookie === 'c1')).toBe(true);
  });
});
