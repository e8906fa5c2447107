import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { connectVim, VimSession, VimSessionRegistry, type MoRef, type VimConnection } from '@app/vim25';
import { startVcsim, type StartVcsimOptions, type VcsimInstance } from '../vcsim';
import { serveApi } from './api-router';
import { serveConsoleUpgrade, type ConsoleEndpoint } from './console-endpoint';
import { ConsoleTicketLedger } from './console-tickets';
import { SerialQueue, type FrontContext, type UndescribedDetails } from './front-context';
import { SdkInterceptor } from './sdk-interceptor';
import { SdkProxy } from './sdk-proxy';
import { VCSIM_REST, VcsimRest } from './vcsim-rest';
import type { VcsimUpdateAnswer } from './update-waits';

/** A running vcsim front: vCenter 8's `/api` and vcsim's `/sdk` on one TLS address. */
export interface VcsimFront {
  /** `https://127.0.0.1:PORT`: give this to the clients (SOAP and REST). */
  readonly url: string;
  /** PEM of the CA that signed the front's certificate (the harness CA; verification stays on). */
  readonly caPem: string;
  /** REST sessions created through `POST /api/session` so far. */
  readonly restSessionsCreated: number;
  /** Ends every REST session handed out, at vcsim (a server-side expiry); returns how many. */
  expireRestSessions(): Promise<number>;
  /**
   * From now on, answers the details of vm-template item `itemId` as vCenter 8 does for a template
   * it cannot describe: 200 with an empty body, `null`, or `{"cpu":{},"memory":{},"vm_home_storage":{}}`.
   */
  markTemplateUndescribed(itemId: string, shape: UndescribedDetails): void;
  /** Holds every `/api` request until the returned function is called (e.g. to catch a sync mid-way). */
  holdApi(): () => void;
  /**
   * From now on a deploy answers `ms` after its VM exists (a long clone, as on vCenter 8): a client
   * can give up or be killed while the VM is already there. 0 restores answers at once.
   */
  delayDeployAnswers(ms: number): void;
  /**
   * From now on each VM task through `/sdk` (ReconfigVM_Task, PowerOnVM_Task, ...) answers `ms`
   * after vcsim finished it, and stays "in flight" on its VM until then: a second task on that VM
   * meanwhile gets vCenter's TaskInProgress. 0 restores answers at once.
   */
  delayVmTasks(ms: number): void;
  /**
   * Resolves once a task of the VM is done at vcsim and its answer held (`delayVmTasks`): from then
   * until the answer, another task on the VM meets TaskInProgress. Rejects after `timeoutMs`.
   */
  untilVmTaskHeld(vm: MoRef, timeoutMs?: number): Promise<void>;
  /** Resolves once no task of the VM is in flight (every held answer sent). Rejects after `timeoutMs`. */
  untilVmTasksAnswered(vm: MoRef, timeoutMs?: number): Promise<void>;
  /**
   * From now on the console tickets issued (AcquireTicket `webmks`) expire `ms` after they are made
   * when unused; default 30 minutes, vCenter's documented lifetime of a one-time console ticket.
   */
  consoleTicketLifetime(ms: number): void;
  /**
   * Ends every vim25 session but the front's own, as vCenter's session timeout would: the waits
   * held for them (WaitForUpdatesEx) are answered NotAuthenticated at once, their collectors and
   * filters are gone. Returns how many waits were answered.
   */
  expireSoapSessions(): Promise<number>;
  /**
   * Test control: every WaitForUpdatesEx version given so far is out of date, as after vCenter
   * dropped a collector's history: the next wait from one answers InvalidCollectorVersion.
   */
  forgetCollectorVersions(): void;
  /** How many WaitForUpdatesEx calls the front holds at vcsim now (a test waits for its own). */
  heldUpdateWaits(): number;
  /**
   * vcsim's answers to WaitForUpdatesEx that brought updates since `since` (this process's
   * performance.now()), each with when it came and the objects it named (the last 1,000 kept):
   * what a bench tells vcsim's own time by from the client's.
   */
  vcsimUpdateAnswers(since: number): VcsimUpdateAnswer[];
  /** How many PerformanceManager.QueryPerf calls reached the front (a cache in front of it shows here). */
  queryPerfCalls(): number;
  /** Closes the server and the front's connections (not vcsim). */
  stop(): Promise<void>;
}

/** What the front needs of a vcsim: where it is, its TLS material and the user it enforces. */
export type VcsimEndpoint = Pick<
  VcsimInstance,
  'url' | 'caPem' | 'certPath' | 'keyPath' | 'username' | 'password'
>;

export interface StartVcsimFrontOptions {
  readonly vcsim: VcsimEndpoint;
  /** Where to listen; default 127.0.0.1 on a free port (a standalone front takes a fixed one). */
  readonly listen?: { readonly host: string; readonly port: number };
}

/**
 * Starts the front (by default on 127.0.0.1, free port) with vcsim's certificate: `/sdk` is
 * forwarded to vcsim, refused where vCenter 8 refuses (see README.md), `/api` is served as vCenter 8 does (see README.md), everything else is 404.
 */
export async function startVcsimFront(options: StartVcsimFrontOptions): Promise<VcsimFront> {
  const { vcsim } = options;
  const listen = options.listen ?? { host: '127.0.0.1', port: 0 };
  const [cert, key] = await Promise.all([readFile(vcsim.certPath, 'utf8'), readFile(vcsim.keyPath, 'utf8')]);
  const rest = new VcsimRest(vcsim.url, vcsim.caPem);
  const proxy = new SdkProxy(vcsim.url, vcsim.caPem);
  const registry = new VimSessionRegistry();
  const soapOptions = {
    url: vcsim.url,
    caPem: vcsim.caPem,
    username: vcsim.username,
    password: vcsim.password,
  };
  let soap: Promise<VimConnection> | undefined;
  const ctx: FrontContext = {
    rest,
    soap: () => {
      soap ??= connectVim(soapOptions, {}, registry).catch((err: unknown) => {
        soap = undefined;
        throw err;
      });
      return soap;
    },
    checkCredentials: async (username, password) => {
      const check = new VimSession({ ...soapOptions, username, password, keepAliveMs: 0 });
      try {
        await check.ensureLoggedIn({ timeoutMs: 30_000 });
        return true;
      } catch {
        return false;
      } finally {
        await check.close();
      }
    },
    sessions: new Set<string>(),
    counters: { sessionsCreated: 0 },
    undescribedTemplates: new Map(),
    deployAnswerDelayMs: 0,
    deploys: new SerialQueue(),
  };

  let vmTaskAnswerDelayMs = 0;
  const consoleTickets = new ConsoleTicketLedger();
  // The certificate names 127.0.0.1 and localhost: a wildcard listener is reached through the former.
  const host = ['0.0.0.0', '::', ''].includes(listen.host) ? '127.0.0.1' : listen.host;
  const sslThumbprint = new X509Certificate(cert).fingerprint;
  const endpoint = (): ConsoleEndpoint => ({
    host,
    port: (server.address() as AddressInfo).port,
    sslThumbprint,
  });
  const sdk = new SdkInterceptor({
    proxy,
    soap: ctx.soap,
    vmTaskAnswerDelayMs: () => vmTaskAnswerDelayMs,
    consoleTickets,
    consoleEndpoint: endpoint,
  });

  const under = (path: string, prefix: string): boolean =>
    path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);
  const server: Server = createServer({ cert, key }, (req, res) => {
    const path = req.url ?? '/';
    if (under(path, '/api')) void serveApi(ctx, req, res);
    else if (under(path, '/sdk')) void sdk.handle(req, res);
    // Not forwarded: vcsim's `/rest` (the client must use `/api` only), `/about`, `/folder`...
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
  });
  // The console tickets' WebSocket endpoint (on vCenter 8 the ESXi host serves `/ticket/`).
  server.on('upgrade', (req, socket) => {
    if ((req.url ?? '').startsWith('/ticket/')) serveConsoleUpgrade(consoleTickets, req, socket);
    else socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
    caPem: vcsim.caPem,
    get restSessionsCreated() {
      return ctx.counters.sessionsCreated;
    },
    markTemplateUndescribed: (itemId, shape) => {
      ctx.undescribedTemplates.set(itemId, shape);
    },
    holdApi: () => {
      let release = (): void => undefined;
      ctx.gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        ctx.gate = undefined;
        release();
      };
    },
    delayDeployAnswers: (ms) => {
      ctx.deployAnswerDelayMs = ms;
    },
    delayVmTasks: (ms) => {
      vmTaskAnswerDelayMs = ms;
    },
    untilVmTaskHeld: (vm, timeoutMs = 10_000) =>
      until(() => sdk.vmTaskHeld(vm.value), timeoutMs, `no task of ${vm.value} held`),
    untilVmTasksAnswered: (vm, timeoutMs = 60_000) =>
      until(() => !sdk.vmTaskInFlight(vm.value), timeoutMs, `a task of ${vm.value} still in flight`),
    consoleTicketLifetime: (ms) => {
      consoleTickets.lifetimeMs = ms;
    },
    expireSoapSessions: () => sdk.updateWaits.expireSessions(),
    forgetCollectorVersions: () => sdk.updateWaits.forgetVersions(),
    heldUpdateWaits: () => sdk.updateWaits.heldCount,
    vcsimUpdateAnswers: (since) => sdk.updateWaits.answersSince(since),
    queryPerfCalls: () => sdk.queryPerfCalls,
    expireRestSessions: async () => {
      const ids = [...ctx.sessions];
      ctx.sessions.clear();
      await Promise.all(ids.map((id) => rest.send('DELETE', VCSIM_REST.session, { session: id })));
      return ids.length;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      proxy.close();
      await registry.closeAll();
      await rest.close();
    },
  };
}

/** vcsim and its front, started together and stopped together (front first). */
export interface VcsimWithFront {
  readonly vcsim: VcsimInstance;
  readonly front: VcsimFront;
  /** The front's address: what the clients use. */
  readonly url: string;
  readonly caPem: string;
  readonly username: string;
  readonly password: string;
  stop(): Promise<void>;
}

/** Starts vcsim (with `opts`) and a front before it. */
export async function startVcsimWithFront(opts: StartVcsimOptions = {}): Promise<VcsimWithFront> {
  const vcsim = await startVcsim(opts);
  let front: VcsimFront;
  try {
    front = await startVcsimFront({ vcsim });
  } catch (err) {
    await vcsim.stop();
    throw err;
  }
  return {
    vcsim,
    front,
    url: front.url,
    caPem: front.caPem,
    username: vcsim.username,
    password: vcsim.password,
    stop: async () => {
      try {
        await front.stop();
      } finally {
        await vcsim.stop();
      }
    },
  };
}

/** Resolves once `condition` holds, checked every 5 ms; rejects with `what` after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
