import { randomBytes } from 'node:crypto';
import { CredentialCipher, CredentialCipherError } from './credential-cipher';

const key = (id: string) => ({ id, key: randomBytes(32) });
const OFFERING = '8c7a9c55-3a3e-4d39-9a52-0c1f0d7d2f10';

describe('CredentialCipher (AES-256-GCM)', () => {
  it('seals and opens a password; the sealed text holds neither it nor the key', () => {
    const k1 = key('k1');
    const cipher = new CredentialCipher([k1]);
    const sealed = cipher.seal('s3cret-Pässwörd', OFFERING);
    expect(sealed.startsWith('v1.k1.')).toBe(true);
    expect(sealed).not.toContain('s3cret');
    expect(sealed).not.toContain(k1.key.toString('base64url'));
    expect(cipher.open(sealed, OFFERING)).toEqual({
      plaintext: 's3cret-Pässwörd',
      keyId: 'k1',
      stale: false,
    });
  });

  it('uses a fresh IV every time', () => {
    const cipher = new CredentialCipher([key('k1')]);
    expect(cipher.seal('same', OFFERING)).not.toBe(cipher.seal('same', OFFERING));
  });

  it('rotates: a new first key seals, the old one still opens and is reported stale', () => {
    const [old, next] = [key('k1'), key('k2')];
    const sealedWithOld = new CredentialCipher([old]).seal('pw', OFFERING);
    const rotated = new CredentialCipher([next, old]);
    expect(rotated.open(sealedWithOld, OFFERING)).toEqual({ plaintext: 'pw', keyId: 'k1', stale: true });
    const resealed = rotated.seal('pw', OFFERING);
    expect(resealed.startsWith('v1.k2.')).toBe(true);
    expect(new CredentialCipher([next]).open(resealed, OFFERING).plaintext).toBe('pw');
  });

  it('refuses a removed key, a wrong key, another offering and altered text', () => {
    const k1 = key('k1');
    const sealed = new CredentialCipher([k1]).seal('pw', OFFERING);
    expect(() => new CredentialCipher([key('k2')]).open(sealed, OFFERING)).toThrow(
      /key "k1", which is not in/,
    );
    expect(() => new CredentialCipher([{ id: 'k1', key: randomBytes(32) }]).open(sealed, OFFERING)).toThrow(
      CredentialCipherError,
    );
    const cipher = new CredentialCipher([k1]);
    expect(() => cipher.open(sealed, '00000000-0000-4000-8000-000000000000')).toThrow(/does not decrypt/);
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.open(parts.join('.'), OFFERING)).toThrow(/does not decrypt/);
    expect(() => cipher.open('plain-text-password', OFFERING)).toThrow(/not in a known format/);
  });

  it('cannot seal without a key', () => {
    const cipher = new CredentialCipher([]);
    expect(cipher.canSeal).toBe(false);
    expect(() => cipher.seal('pw', OFFERING)).toThrow(/no CREDENTIALS_KEYS/);
  });
});
