import { acquireTicket, type SoapCaller } from '@app/vim25';
import { acquireTicketEnvelope, webMksUrl } from './console-endpoint';
import { ConsoleTicketLedger } from './console-tickets';
import { acquireTicketRefusal } from './sdk-rules';

describe('ConsoleTicketLedger', () => {
  it('accepts a ticket once, within its lifetime; a second use, an expired or an unknown ticket never', () => {
    let now = 1_000;
    const ledger = new ConsoleTicketLedger(() => now);
    ledger.lifetimeMs = 100;
    const once = ledger.issue('vm-1');
    const late = ledger.issue('vm-1');
    expect(once).not.toBe(late);
    expect(ledger.redeem(once)).toBe('accepted');
    expect(ledger.redeem(once)).toBe('used');
    now += 100;
    expect(ledger.redeem(late)).toBe('expired');
    expect(ledger.redeem('f'.repeat(48))).toBe('unknown');
    expect([once, late].map((t) => ledger.isConsoleTicket(t))).toEqual([true, true]);
    expect(ledger.isConsoleTicket('cst-VCT-52')).toBe(false);
  });
});

describe('acquireTicketRefusal', () => {
  it('issues for a powered-on VM only, InvalidState otherwise', () => {
    expect(acquireTicketRefusal({ powerState: 'poweredOn' })).toBeUndefined();
    expect(acquireTicketRefusal({ powerState: 'poweredOff' })?.type).toBe('InvalidState');
    expect(acquireTicketRefusal({ powerState: 'suspended' })?.type).toBe('InvalidState');
  });
});

describe('acquireTicketEnvelope', () => {
  it('is read by the project client as the VirtualMachineTicket it describes', async () => {
    const endpoint = { host: '127.0.0.1', port: 8443, sslThumbprint: 'AB:CD' };
    const body = acquireTicketEnvelope({ ticket: 'abc', cfgFile: '[ds] vm/vm.vmx', endpoint });
    // A recorded answer in place of the network: what the client makes of the front's envelope.
    const caller: SoapCaller = { call: () => Promise.resolve({ status: 200, body }) };
    const ticket = await acquireTicket(caller, { type: 'VirtualMachine', value: 'vm-1' }, 'webmks');
    expect(ticket).toEqual({
      ticket: 'abc',
      host: '127.0.0.1',
      port: 8443,
      sslThumbprint: 'AB:CD',
      url: 'wss://127.0.0.1:8443/ticket/abc',
    });
    expect(webMksUrl('abc', endpoint)).toBe(ticket.url);
    expect(body).toContain('<cfgFile>[ds] vm/vm.vmx</cfgFile>');
  });
});
