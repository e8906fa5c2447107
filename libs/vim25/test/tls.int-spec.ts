import { connectVim, readDatacenters, VimSessionRegistry, VimTransportError } from '@app/vim25';
import { startVcsim, type VcsimInstance } from '../../../test/support/vcsim';

describe('TLS to vCenter (vcsim with a certificate from a throwaway CA)', () => {
  let sim: VcsimInstance;
  let registry: VimSessionRegistry;

  beforeAll(async () => {
    sim = await startVcsim();
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

  it('succeeds with the CA and verification on', async () => {
    const ctx = await connectVim(
      { url: sim.url, caPem: sim.caPem, username: 'u', password: 'p' },
      {},
      registry,
    );
    expect((await readDatacenters(ctx)).map((d) => d.name)).toEqual(['DC0']);
  });

  it('fails with a clear certificate error when verification is on and no CA is given', async () => {
    const error = await connectVim({ url: sim.url, username: 'u', password: 'p' }, {}, registry).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VimTransportError);
    expect(error).toMatchObject({ kind: 'tls', operation: 'RetrieveServiceContent' });
    expect((error as Error).message).toMatch(/TLS certificate is not trusted/);
    expect((error as Error).message).toContain(sim.url);
  });

  it('succeeds without a CA when verification is off (verify_ssl false)', async () => {
    const ctx = await connectVim(
      { url: sim.url, verifySsl: false, username: 'u', password: 'p' },
      {},
      registry,
    );
    expect((await readDatacenters(ctx)).length).toBe(1);
  });

  it('names the operation and endpoint when nothing listens', async () => {
    const url = `https://127.0.0.1:${new URL(sim.url).port === '1' ? 2 : 1}`;
    const error = await connectVim({ url, username: 'u', password: 'p' }, {}, registry).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VimTransportError);
    expect(error).toMatchObject({ kind: 'network', operation: 'RetrieveServiceContent' });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });
});
