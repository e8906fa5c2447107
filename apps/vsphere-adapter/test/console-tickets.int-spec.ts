import { randomUUID } from 'node:crypto';
import { powerOffVm, powerOnVm, type MoRef } from '@app/vim25';
import type { Caller, RequestReply } from '@app/contracts';
import { holdsSession, rawSoap } from '../../../test/support/raw-soap';
import { startAdapterSuite, stopAdapterSuite, type AdapterSuite } from './support/adapter-suite';
import { connectSuiteVcenter, orderVm } from './support/device-suite';
import { ask, ownerOf, staff } from './support/requests';

jest.setTimeout(120_000);

const SESSION_MANAGER = { type: 'SessionManager', value: 'SessionManager' };

/**
 * Every secret a console URL carries: the user part of `vmrc://clone:<ticket>@host`, the
 * `/ticket/<ticket>` of a WebMKS URL, and every query value but the VM's moid. Pure.
 */
function secretsOf(url: string): string[] {
  const parsed = new URL(url);
  const found = [parsed.password, parsed.username === 'clone' ? '' : parsed.username];
  const path = parsed.pathname.split('/');
  const at = path.indexOf('ticket');
  if (at >= 0) found.push(path.slice(at + 1).join('/'));
  for (const [key, value] of parsed.searchParams) if (key !== 'moid') found.push(value);
  return found.filter((s) => s !== '').map((s) => decodeURIComponent(s));
}

describe('console tickets: nothing the API hands out works as a vCenter session', () => {
  let suite: AdapterSuite;
  const offering = randomUUID();
  const customer = randomUUID();
  let vmUuid: string;
  let vm: MoRef;

  const consoleOf = (caller: Caller, route: 'console' | 'web_console') =>
    ask<{ url: string }>(suite.client, `vsphere.vm.${route}`, {
      caller,
      params: { uuid: vmUuid },
      query: {},
      body: {},
    });

  beforeAll(async () => {
    suite = await startAdapterSuite({
      database: 'adapter_console_tickets',
      namespace: 'adapterconsole',
      // vcsim takes any user and password unless given its own: a ticket tried as a login must meet a real check.
      vcsim: { username: 'svc', password: 's3cret' },
      env: { VSPHERE_DEPLOY_TIMEOUT_MS: '60000' },
    });
    await suite.library.publish('Ubuntu-22.04', { nics: 1, memoryMB: 1024 });
    const inv = await connectSuiteVcenter(suite, offering);
    ({ vmUuid, ref: vm } = await orderVm(suite, {
      offering,
      customer,
      name: 'console-1',
      template: inv.templates.get('Ubuntu-22.04')!,
      network: inv.networks.get('DC0_DVPG0')!,
    }));
  });

  afterAll(() => stopAdapterSuite(suite ?? {}));

  it('refuses every ticket of every console answer, for every role, at CloneSession, as a session cookie and as a login', async () => {
    const answers: RequestReply<{ url: string }>[] = [];
    for (const caller of [staff(), ownerOf(customer)])
      for (const route of ['console', 'web_console'] as const) answers.push(await consoleOf(caller, route));
    const urls = answers.flatMap((a) => (a.status === 'ok' ? [a.data.url] : []));
    const tickets = urls.flatMap(secretsOf);
    // The web console hands a ticket to staff and to the VM's customer: the check below is not empty.
    expect(tickets.length).toBeGreaterThanOrEqual(2);
    for (const ticket of tickets) {
      const cloned = await rawSoap(suite.sim, 'CloneSession', SESSION_MANAGER, { cloneTicket: ticket });
      expect({ ticket, fault: cloned.faultType }).toEqual({ ticket, fault: 'InvalidLogin' });
      expect(await holdsSession(suite.sim, cloned.cookie)).toBe(false);
      expect(await holdsSession(suite.sim, `vmware_soap_session=${ticket}`)).toBe(false);
      const login = await rawSoap(suite.sim, 'Login', SESSION_MANAGER, {
        userName: ticket,
        password: ticket,
      });
      expect(login.faultType).toBe('InvalidLogin');
      expect(await holdsSession(suite.sim, login.cookie)).toBe(false);
    }
  });

  it('answers staff a VMRC URL with no credential in it, and refuses it to a customer with the reason', async () => {
    const staffUrl = await consoleOf(staff(), 'console');
    expect(staffUrl.status).toBe('ok');
    const url = new URL(staffUrl.status === 'ok' ? staffUrl.data.url : '');
    expect(url.protocol).toBe('vmrc:');
    expect({ username: url.username, password: url.password }).toEqual({ username: '', password: '' });
    expect([...url.searchParams.keys()]).toEqual(['moid']);
    expect(url.searchParams.get('moid')).toBe(vm.value);
    expect(await consoleOf(ownerOf(customer), 'console')).toMatchObject({ status: 'error', code: 403 });
  });

  it('answers a web console URL (wss, a new single-use ticket each time) for the VM powered on, 409 with the reason powered off', async () => {
    const first = await consoleOf(ownerOf(customer), 'web_console');
    const second = await consoleOf(ownerOf(customer), 'web_console');
    const [a, b] = [first, second].map((r) => (r.status === 'ok' ? r.data.url : ''));
    expect(a).toMatch(/^wss:\/\/[^/]+\/ticket\/[^/]+$/);
    expect(secretsOf(a)).not.toEqual(secretsOf(b));
    await powerOffVm(suite.library.connection, vm);
    try {
      expect(await consoleOf(ownerOf(customer), 'web_console')).toEqual({
        status: 'error',
        code: 409,
        detail: 'The virtual machine must be POWERED_ON for a web console; it is POWERED_OFF.',
      });
    } finally {
      await powerOnVm(suite.library.connection, vm);
    }
  });
});
