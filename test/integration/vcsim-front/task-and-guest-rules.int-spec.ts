import { request } from 'node:https';
import {
  faultFromSoapFault,
  parseXml,
  powerOffVm,
  powerOnVm,
  rebootGuestOs,
  reconfigureHardware,
  shutdownGuestOs,
  VimFault,
  type MoRef,
} from '@app/vim25';
import { setGuestToolsStatus } from '../../support/vcsim-front';
import { startFrontSuite, type FrontSuite } from './front-vms';

async function faultOf(work: Promise<unknown>): Promise<VimFault> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof VimFault)) throw new Error(`expected a VimFault, got ${String(err)}`);
  return err;
}

/** POSTs `body` with no session cookie (or the `cookie` given); resolves with the status and the body. */
function postWithoutSession(
  url: string,
  ca: string,
  body: string,
  cookie?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        ca,
        headers: { 'content-type': 'text/xml; charset=utf-8', ...(cookie ? { cookie } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The fault type of a SOAP fault answer. */
function readSdkFault(xml: string): string {
  const fault = parseXml(xml).children[0].children[0];
  return faultFromSoapFault('ShutdownGuest', fault).faultType;
}

describe('vcsim front /sdk: one task per VM, guest operations need Tools', () => {
  let s: FrontSuite;
  let n = 0;
  const fresh = () => s.newVm(`tg-${++n}`);
  const power = async (vm: MoRef) => (await s.read(vm)).powerState;

  beforeAll(async () => {
    s = await startFrontSuite();
  });

  afterEach(() => {
    s.sim.front.delayVmTasks(0);
  });

  afterAll(async () => {
    await s?.stop();
  });

  it('refuses a second task on a VM while one is in flight (TaskInProgress naming it); only the first happens', async () => {
    const vm = await fresh();
    s.sim.front.delayVmTasks(2_000);
    const first = powerOnVm(s.ctx, vm);
    await s.sim.front.untilVmTaskHeld(vm);
    const second = await faultOf(reconfigureHardware(s.ctx, vm, { numCPUs: 2 }));
    expect(second).toMatchObject({ operation: 'ReconfigVM_Task', faultType: 'TaskInProgress' });
    expect(second.message).toBe('Another task is already in progress.');
    expect(second.detail).toMatchObject({ task: { type: 'Task' } });
    const third = await faultOf(powerOffVm(s.ctx, vm));
    expect(third.faultType).toBe('TaskInProgress');
    await first;
    expect(await s.read(vm)).toMatchObject({ powerState: 'poweredOn', numCPU: 1 });
  });

  it('runs tasks on two different VMs at once, and the next task on a VM once the first answered', async () => {
    const a = await fresh();
    const b = await fresh();
    s.sim.front.delayVmTasks(300);
    await Promise.all([powerOnVm(s.ctx, a), powerOnVm(s.ctx, b)]);
    await powerOffVm(s.ctx, a);
    expect([await power(a), await power(b)]).toEqual(['poweredOff', 'poweredOn']);
  });

  it('refuses ShutdownGuest and RebootGuest on a running VM without Tools (ToolsUnavailable); the VM keeps running', async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    expect((await s.read(vm)).toolsRunningStatus).toBe('guestToolsNotRunning');
    const shutdown = await faultOf(shutdownGuestOs(s.ctx, vm));
    expect(shutdown).toMatchObject({ operation: 'ShutdownGuest', faultType: 'ToolsUnavailable' });
    expect(shutdown.message).toBe(
      'Cannot complete operation because VMware Tools is not running in this virtual machine.',
    );
    expect((await faultOf(rebootGuestOs(s.ctx, vm))).faultType).toBe('ToolsUnavailable');
    expect(await power(vm)).toBe('poweredOn');
  });

  it('refuses ShutdownGuest and RebootGuest on a powered-off VM with InvalidPowerState', async () => {
    const vm = await fresh();
    const shutdown = await faultOf(shutdownGuestOs(s.ctx, vm));
    expect(shutdown).toMatchObject({
      faultType: 'InvalidPowerState',
      detail: { existingState: 'poweredOff' },
    });
    expect((await faultOf(rebootGuestOs(s.ctx, vm))).faultType).toBe('InvalidPowerState');
    expect(await power(vm)).toBe('poweredOff');
  });

  it('passes ShutdownGuest on to vcsim when Tools run (the VM goes off); RebootGuest stays MethodNotFound', async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    await setGuestToolsStatus(s.ctx, vm, 'guestToolsRunning');
    expect((await s.read(vm)).toolsRunningStatus).toBe('guestToolsRunning');
    expect((await faultOf(rebootGuestOs(s.ctx, vm))).faultType).toBe('MethodNotFound');
    await shutdownGuestOs(s.ctx, vm);
    expect(await power(vm)).toBe('poweredOff');
  });

  it("answers a caller without a session vcsim's NotAuthenticated, not a rule's fault, and changes nothing", async () => {
    const vm = await fresh();
    await powerOnVm(s.ctx, vm);
    const envelope =
      '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/">' +
      `<soapenv:Body><ShutdownGuest xmlns="urn:vim25"><_this type="VirtualMachine">${vm.value}</_this></ShutdownGuest>` +
      '</soapenv:Body></soapenv:Envelope>';
    for (const cookie of [undefined, 'vmware_soap_session=0d1e2f30-ended']) {
      const reply = await postWithoutSession(`${s.sim.url}/sdk`, s.sim.caPem, envelope, cookie);
      expect(reply.status).toBe(500);
      expect(readSdkFault(reply.body)).toBe('NotAuthenticated');
    }
    expect(await power(vm)).toBe('poweredOn');
  });
});
