import { randomBytes } from 'node:crypto';
import { loadVsphereAdapterConfig } from './vsphere-adapter.config';
import { parseCredentialKeys } from './credential-keys';

const key = () => randomBytes(32).toString('base64');

describe('CREDENTIALS_KEYS', () => {
  it('reads id:base64key pairs in order (the first encrypts)', () => {
    const [a, b] = [key(), key()];
    const parsed = parseCredentialKeys(`k2:${a}, k1:${b}`);
    expect(parsed.problems).toEqual([]);
    expect(parsed.keys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(parsed.keys[0].key.equals(Buffer.from(a, 'base64'))).toBe(true);
  });

  it('is optional', () => {
    expect(parseCredentialKeys(undefined)).toEqual({ keys: [], problems: [] });
  });

  it('names each bad entry without repeating the secret', () => {
    const short = Buffer.from('too short').toString('base64');
    const good = key();
    const parsed = parseCredentialKeys(`k1:${short},nocolon,k2:${good},k2:${good}`);
    expect(parsed.problems).toEqual([
      'entry 1 (id "k1") must be 32 bytes in base64 (e.g. `openssl rand -base64 32`)',
      'entry 2 must be id:base64key with an id of letters, digits, _ or - (at most 32)',
      'entry 4: the id "k2" is used twice',
    ]);
    expect(parsed.problems.join(' ')).not.toContain(short);
    expect(parsed.problems.join(' ')).not.toContain(good);
  });

  it('stops the adapter at start with the problem, never the value', () => {
    const secret = Buffer.from('x'.repeat(31)).toString('base64');
    expect(() => loadVsphereAdapterConfig({ CREDENTIALS_KEYS: `k1:${secret}` })).toThrow(
      /CREDENTIALS_KEYS \(set, not shown\): entry 1 \(id "k1"\) must be 32 bytes/,
    );
    let thrown: unknown;
    try {
      loadVsphereAdapterConfig({ CREDENTIALS_KEYS: `k1:${secret}`, ORDER_CONCURRENCY: 'many' });
    } catch (error) {
      thrown = error;
    }
    expect(String(thrown)).toContain('ORDER_CONCURRENCY');
    expect(String(thrown)).toContain('CREDENTIALS_KEYS');
    expect(String(thrown)).not.toContain(secret);
  });

  it('reads the basic-mode flag as Waldur spells booleans', () => {
    expect(loadVsphereAdapterConfig({}).VSPHERE_BASIC_MODE).toBe(false);
    expect(loadVsphereAdapterConfig({ VSPHERE_BASIC_MODE: 'true' }).VSPHERE_BASIC_MODE).toBe(true);
    expect(() => loadVsphereAdapterConfig({ VSPHERE_BASIC_MODE: 'perhaps' })).toThrow(
      /must be true or false/,
    );
  });
});
