import { hashPassword, needsRehash, verifyPassword } from './password-hash';

describe('password hashes (scrypt)', () => {
  it('verifies the password it was made from, and no other', async () => {
    const hash = await hashPassword('correct horse 9');
    expect(await verifyPassword('correct horse 9', hash)).toBe(true);
    expect(await verifyPassword('correct horse 8', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
  });

  it('writes the parameters and a fresh salt with each hash, and never the password', async () => {
    const [first, second] = [await hashPassword('same-password'), await hashPassword('same-password')];
    expect(first).toMatch(/^scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('same-password');
  });

  it('still verifies a hash made with other parameters, and asks for a rehash', async () => {
    const old = await hashPassword('older-password', { ln: 10, r: 8, p: 1 });
    expect(await verifyPassword('older-password', old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('x'))).toBe(false);
  });

  it('treats no hash, a malformed one and absurd parameters as a mismatch, never an error', async () => {
    for (const stored of [
      null,
      undefined,
      '',
      'plain',
      'scrypt$ln=40,r=8,p=1$AAAA$AAAA',
      'scrypt$ln=15,r=8,p=1$AA$short',
    ])
      expect(await verifyPassword('anything', stored)).toBe(false);
  });

  it('normalises Unicode, so the same password typed two ways matches', async () => {
    const hash = await hashPassword('caf\u00e9-password');
    expect(await verifyPassword('cafe\u0301-password', hash)).toBe(true);
  });
});
