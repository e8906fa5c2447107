import {
  connectVim,
  readDatacenters,
  readVirtualMachine,
  readVirtualMachines,
  reconfigureHardware,
  retrieveProperty,
  terminateSession,
  toUserSessions,
  VimFault,
  VimSession,
  VimSessionRegistry,
  type MoRef,
  type VimConnection,
} from '@app/vim25';
import { startVcsim, type VcsimInstance } from '../../../test/support/vcsim';

describe('vCenter sessions against vcsim with enforced credentials', () => {
  let sim: VcsimInstance;
  let registry: VimSessionRegistry;
  const options = (password: string) => ({ url: '', caPem: '', username: 'alice', password });

  let vmRefs: MoRef[];

  beforeAll(async () => {
    sim = await startVcsim({ username: 'alice', password: 's3cret&<x>' });
    const setup = new VimSessionRegistry();
    const ctx = await connectVim({ ...options('s3cret&<x>'), url: sim.url, caPem: sim.caPem }, {}, setup);
    vmRefs = (await readVirtualMachines(ctx)).map((vm) => vm.ref);
    await setup.closeAll();
  });

  beforeEach(() => {
    registry = new VimSessionRegistry();
  });

  afterEach(async () => {
    await registry.closeAll();
  });

  afterAll(async () => {
    await sim?.stop();
  });

  const connect = (password: string): Promise<VimConnection> =>
    connectVim({ ...options(password), url: sim.url, caPem: sim.caPem }, {}, registry);

  async function sessionKeys(ctx: VimConnection): Promise<string[]> {
    const list = await retrieveProperty(
      ctx.caller,
      ctx.content.propertyCollector,
      ctx.content.sessionManager,
      'sessionList',
    );
    return toUserSessions(list).map((s) => s.key);
  }

  it('logs in with the right credentials (password with XML special characters)', async () => {
    const ctx = await connect('s3cret&<x>');
    expect(ctx.session.userSession?.userName).toBe('alice');
    expect((await readDatacenters(ctx)).map((d) => d.name)).toEqual(['DC0']);
  });

  it('refuses a wrong password with vCenter InvalidLogin message', async () => {
    const error = await connect('wrong').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VimFault);
    expect(error).toMatchObject({ operation: 'Login', faultType: 'InvalidLogin', message: 'Login failure' });
  });

  it('gives a new session when the credentials change for the same vCenter and user', async () => {
    const wrong = registry.get({ ...options('wrong'), url: sim.url, caPem: sim.caPem });
    const right = registry.get({ ...options('s3cret&<x>'), url: sim.url, caPem: sim.caPem });
    expect(right).not.toBe(wrong);
    expect(registry.get({ ...options('s3cret&<x>'), url: sim.url, caPem: sim.caPem })).toBe(right);
    await right.ensureLoggedIn();
    expect(right.loginCount).toBe(1);
  });

  it('renews a session ended on the server without the caller noticing (fault and missingSet forms)', async () => {
    const ctx = await connect('s3cret&<x>');
    const admin = new VimSession({
      ...options('s3cret&<x>'),
      url: sim.url,
      caPem: sim.caPem,
      keepAliveMs: 0,
    });
    try {
      const vm = (await readVirtualMachines(ctx))[0];
      // RetrievePropertiesEx answers a dead session with missingSet NotAuthenticated.
      await terminateSession(admin, ctx.content.sessionManager, [ctx.session.userSession?.key ?? '']);
      expect((await readVirtualMachine(ctx, vm.ref))?.name).toBe(vm.name);
      expect(ctx.session.loginCount).toBe(2);
      // CreateContainerView answers it with a NotAuthenticated SOAP fault.
      await terminateSession(admin, ctx.content.sessionManager, [ctx.session.userSession?.key ?? '']);
      expect((await readDatacenters(ctx)).map((d) => d.name)).toEqual(['DC0']);
      expect(ctx.session.loginCount).toBe(3);
    } finally {
      await admin.close();
    }
  });

  it('runs 50 concurrent operations over one vCenter session', async () => {
    // Earlier tests logged their sessions out, so the server holds none before this one.
    const registry50 = new VimSessionRegistry();
    try {
      const settings = { ...options('s3cret&<x>'), url: sim.url, caPem: sim.caPem };
      const session = registry50.get(settings);
      const ctx: VimConnection = {
        caller: session,
        content: await session.serviceContent(),
        serverAddress: '',
        session,
      };
      const vms = vmRefs;
      // All 50 start before any Login has answered: they must share one.
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          i % 2 === 0
            ? readVirtualMachine(ctx, vms[i % 4]).then((vm) => vm?.name)
            : reconfigureHardware(ctx, vms[i % 4], { memoryMB: 64 + 16 * (i % 4) }).then(() => 'ok'),
        ),
      );
      expect(results.filter((r) => r === 'ok')).toHaveLength(25);
      expect(results.filter((r) => r?.startsWith('DC0_'))).toHaveLength(25);
      expect(session.loginCount).toBe(1);
      expect(await sessionKeys(ctx)).toEqual([session.userSession?.key]);
    } finally {
      await registry50.closeAll();
    }
  });

  it('logs out at shutdown', async () => {
    const ctx = await connect('s3cret&<x>');
    const key = ctx.session.userSession?.key;
    const observer = new VimSession({
      ...options('s3cret&<x>'),
      url: sim.url,
      caPem: sim.caPem,
      keepAliveMs: 0,
    });
    try {
      await registry.closeAll();
      const list = await retrieveProperty(
        observer,
        ctx.content.propertyCollector,
        ctx.content.sessionManager,
        'sessionList',
      );
      expect(toUserSessions(list).map((s) => s.key)).not.toContain(key);
    } finally {
      await observer.close();
    }
  });
});
