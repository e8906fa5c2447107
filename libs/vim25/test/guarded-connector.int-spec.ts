import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  RestSession,
  SoapTransport,
  VimTransportError,
  type AddressCheck,
  type HostLookup,
} from '@app/vim25';
import { createTestTls, type TestTls } from '../../../test/support/tls-ca';

/** The transport's address check at connect time, against a local HTTPS server that records. */
describe('the guarded connector', () => {
  let tls: TestTls;
  let server: Server;
  let port: number;
  const seen: { servername: string | false | null }[] = [];

  beforeAll(async () => {
    tls = await createTestTls();
    server = createServer(
      { key: await readFile(tls.keyPath), cert: await readFile(tls.certPath) },
      (req, res) => {
        seen.push({ servername: (req.socket as TLSSocket).servername });
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end('{"internal":"SECRET-FROM-INSIDE"}');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await tls.remove();
  });

  beforeEach(() => {
    seen.length = 0;
  });

  const noLoopback: AddressCheck = (address) => (address.startsWith('127.') ? 'it is loopback' : undefined);
  const call = async (url: string, lookup: HostLookup, check = noLoopback) => {
    const transport = new SoapTransport({ url, verifySsl: false, addressCheck: check, lookup });
    try {
      return await transport.call('RetrieveServiceContent', '<x/>', { timeoutMs: 5_000 });
    } catch (error) {
      return error;
    } finally {
      await transport.close();
    }
  };

  it('refuses a name that resolves to a refused address now, whatever it resolved to before', async () => {
    // A rebinding DNS: public when the URL was saved, loopback by the time the adapter connects.
    const answers = [[{ address: '93.184.215.14', family: 4 }], [{ address: '127.0.0.1', family: 4 }]];
    const rebinding: HostLookup = () => Promise.resolve(answers.shift() ?? []);
    await rebinding('vc.rebind.test'); // the check made at save time
    const error = await call(`https://vc.rebind.test:${port}`, rebinding);
    expect(error).toBeInstanceOf(VimTransportError);
    expect(error).toMatchObject({ kind: 'refused' });
    expect((error as Error).message).toMatch(/vc\.rebind\.test may not be connected to: it is loopback/);
    expect(seen).toEqual([]);
  });

  it('refuses a name one of whose addresses is refused, and a refused literal address', async () => {
    const mixed: HostLookup = () =>
      Promise.resolve([
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ]);
    expect(await call(`https://vc.mixed.test:${port}`, mixed)).toMatchObject({ kind: 'refused' });
    expect(await call(`https://127.0.0.1:${port}`, mixed)).toMatchObject({ kind: 'refused' });
    expect(seen).toEqual([]);
  });

  it('opens the socket to the address it checked, keeping the name for SNI, and quotes no body', async () => {
    const checked: string[] = [];
    const toLoopback: HostLookup = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const error = await call(`https://vc.allowed.test:${port}`, toLoopback, (address, hostname) => {
      checked.push(`${hostname}=${address}`);
      return undefined;
    });
    expect(checked).toEqual(['vc.allowed.test=127.0.0.1']);
    expect(seen).toEqual([{ servername: 'vc.allowed.test' }]);
    expect(error).toMatchObject({ kind: 'http', status: 403 });
    expect((error as Error).message).not.toContain('SECRET');
  });

  it('follows no redirect: a 3xx to an internal address is an error, the credentials go nowhere else', async () => {
    // A "vCenter" at an allowed address sends /api/session and /sdk to another service.
    const inside: string[] = [];
    const internal = createServer(
      { key: await readFile(tls.keyPath), cert: await readFile(tls.certPath) },
      (req, res) => {
        inside.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
        res.end('"SECRET-SESSION"');
      },
    );
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const target = `https://127.0.0.1:${(internal.address() as AddressInfo).port}`;
    const redirecting = createServer(
      { key: await readFile(tls.keyPath), cert: await readFile(tls.certPath) },
      (req, res) => {
        req.resume();
        res.writeHead(307, { location: `${target}${req.url ?? '/'}` });
        res.end();
      },
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    const url = `https://vc.redirect.test:${(redirecting.address() as AddressInfo).port}`;
    const toLoopback: HostLookup = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const onlyTheName: AddressCheck = (_address, hostname) =>
      hostname === 'vc.redirect.test' ? undefined : 'not the vCenter';
    const options = {
      url,
      verifySsl: false,
      addressCheck: onlyTheName,
      lookup: toLoopback,
      timeoutMs: 5_000,
    };
    const rest = new RestSession({ ...options, username: 'svc', password: 'PASSWORD-OF-VCENTER' });
    const soap = new SoapTransport(options);
    try {
      const restError = await rest.ensureSession().catch((error: unknown) => error);
      const soapError = await soap.call('RetrieveServiceContent', '<x/>').catch((error: unknown) => error);
      expect(restError).toMatchObject({ status: 307 });
      expect(soapError).toMatchObject({ kind: 'http', status: 307 });
      expect(inside).toEqual([]);
    } finally {
      await rest.close().catch(() => undefined);
      await soap.close();
      await new Promise((resolve) => internal.close(resolve));
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });
});
