import { VimSessionRegistry } from './session-registry';

const base = { url: 'https://vc.example', username: 'svc', password: 'one', keepAliveMs: 0 };

describe('VimSessionRegistry', () => {
  let registry: VimSessionRegistry;

  beforeEach(() => {
    registry = new VimSessionRegistry();
  });

  afterEach(async () => {
    await registry.closeAll();
  });

  it('shares one session per vCenter and user', () => {
    const first = registry.get(base);
    expect(registry.get({ ...base })).toBe(first);
    expect(registry.get({ ...base, url: 'https://VC.example:443/' })).toBe(first);
    expect(registry.get({ ...base, username: 'other' })).not.toBe(first);
    expect(registry.get({ ...base, url: 'https://vc.example:8443' })).not.toBe(first);
    expect(registry.size).toBe(3);
  });

  it('replaces the session when the password or TLS settings change', async () => {
    const first = registry.get(base);
    const second = registry.get({ ...base, password: 'two' });
    expect(second).not.toBe(first);
    expect(registry.get({ ...base, password: 'two', verifySsl: false })).not.toBe(second);
    expect(registry.size).toBe(1);
    await expect(first.call('CurrentTime', '<x/>')).rejects.toThrow(
      /session to https:\/\/vc.example is closed/,
    );
  });
});
