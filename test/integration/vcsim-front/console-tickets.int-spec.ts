import { randomBytes, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import {
  acquireCloneTicket,
  acquireWebMksTicket,
  powerOnVm,
  suspendVm,
  VimFault,
  type MoRef,
} from '@app/vim25';
import { holdsSession, rawSoap } from '../../support/raw-soap';
import { startFrontSuite, type FrontSuite } from './front-vms';

const SESSION_MANAGER = { type: 'SessionManager', value: 'SessionManager' };

/**
 * Opens the console WebSocket of `url` (`wss://host:port/ticket/...`), as the HTML console does:
 * the HTTP status of the handshake, 101 when the ticket was accepted.
 */
function openConsole(url: string, ca: string): Promise<number> {
  const target = new URL(url.replace(/^wss:/, 'https:'));
  return new Promise((resolve, reject) => {
    const req = request(target, {
      ca,
      agent: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
      },
    });
    req.once('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.once('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end();
  });
}

async function faultOf(work: Promise<unknown>): Promise<VimFault> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof VimFault)) throw new Error(`expected a VimFault, got ${String(err)}`);
  return err;
}

// Reproduced here, each with its source in ../../support/vcsim-front/README.md:
// - AcquireTicket("webmks") answers a VirtualMachineTicket (ticket, cfgFile, host, port, sslThumbprint, url)
// - a console ticket opens one console, once; unused, it expires
// - AcquireTicket on a VM that is not powered on: InvalidState
// - CloneSession with a console ticket: InvalidLogin, no session; a real clone ticket still clones
describe('vcsim front /sdk: VM console tickets as vCenter 8 issues them', () => {
  let s: FrontSuite;
  let n = 0;
  let on: MoRef;

  beforeAll(async () => {
    s = await startFrontSuite();
    on = await s.newVm(`ct-${++n}`);
    await powerOnVm(s.ctx, on);
  });

  afterEach(() => {
    s.sim.front.consoleTicketLifetime(30 * 60_000);
  });

  afterAll(async () => {
    await s?.stop();
  });

  it('answers AcquireTicket(webmks) with a VirtualMachineTicket: ticket, cfgFile, host, port, the certificate thumbprint and the wss url; a new ticket each time', async () => {
    const first = await acquireWebMksTicket(s.ctx, on);
    const second = await acquireWebMksTicket(s.ctx, on);
    const front = new URL(s.sim.url);
    const thumbprint = new X509Certificate(readFileSync(s.sim.vcsim.certPath)).fingerprint;
    expect(first).toEqual({
      ticket: expect.stringMatching(/^[0-9a-f]{48}$/) as unknown,
      host: front.hostname,
      port: Number(front.port),
      sslThumbprint: thumbprint,
      url: `wss://${front.hostname}:${front.port}/ticket/${first.ticket}`,
    });
    expect(thumbprint).toMatch(/^([0-9A-F]{2}:){19}[0-9A-F]{2}$/);
    expect(second.ticket).not.toBe(first.ticket);
    const cfgFile = await rawSoap(s.sim, 'AcquireTicket', on, { ticketType: 'webmks' }, await cookieOf(s));
    expect(cfgFile.body).toMatch(/<cfgFile>\[[^\]]+\] [^<]+\.vmx<\/cfgFile>/);
  });

  it('opens one console per ticket: the first use is accepted, a second refused', async () => {
    const { url } = await acquireWebMksTicket(s.ctx, on);
    expect(await openConsole(url!, s.sim.caPem)).toBe(101);
    expect(await openConsole(url!, s.sim.caPem)).toBe(403);
    expect(await openConsole(url!.replace(/[0-9a-f]{48}$/, 'f'.repeat(48)), s.sim.caPem)).toBe(403);
  });

  it('refuses a ticket unused past its lifetime', async () => {
    s.sim.front.consoleTicketLifetime(0);
    const { url } = await acquireWebMksTicket(s.ctx, on);
    expect(await openConsole(url!, s.sim.caPem)).toBe(403);
  });

  it("refuses AcquireTicket on a powered-off or suspended VM with InvalidState, vCenter's text", async () => {
    const off = await s.newVm(`ct-${++n}`);
    const suspended = await s.newVm(`ct-${++n}`);
    await powerOnVm(s.ctx, suspended);
    await suspendVm(s.ctx, suspended);
    for (const vm of [off, suspended])
      expect(await faultOf(acquireWebMksTicket(s.ctx, vm))).toMatchObject({
        faultType: 'InvalidState',
        message: 'The operation is not allowed in the current state.',
      });
  });

  it("refuses a console ticket at CloneSession (InvalidLogin, vCenter's text, no session) while a real clone ticket still clones the session", async () => {
    const { ticket } = await acquireWebMksTicket(s.ctx, on);
    const refused = await rawSoap(s.sim, 'CloneSession', SESSION_MANAGER, { cloneTicket: ticket });
    expect({ fault: refused.faultType, message: refused.faultMessage }).toEqual({
      fault: 'InvalidLogin',
      message: 'Cannot complete login due to an incorrect user name or password.',
    });
    expect(await holdsSession(s.sim, refused.cookie)).toBe(false);

    // What the old VMRC link carried: a clone ticket of the caller's session is that session.
    const clone = await acquireCloneTicket(s.ctx.caller, s.ctx.content.sessionManager);
    const cloned = await rawSoap(s.sim, 'CloneSession', SESSION_MANAGER, { cloneTicket: clone });
    expect(cloned.faultType).toBeUndefined();
    expect(await holdsSession(s.sim, cloned.cookie)).toBe(true);
  });
});

/** A fresh session's cookie through the front, for raw calls. */
async function cookieOf(suite: FrontSuite): Promise<string> {
  const login = await rawSoap(suite.sim, 'Login', SESSION_MANAGER, {
    userName: suite.sim.username,
    password: suite.sim.password,
  });
  if (login.cookie === undefined) throw new Error(`no session: ${login.body}`);
  return login.cookie;
}
