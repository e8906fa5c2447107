import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CredentialKey } from '../../config/credential-keys';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed secret could not be opened: unknown key id, wrong key, or tampered text. */
export class CredentialCipherError extends Error {
  override readonly name = 'CredentialCipherError';
}

/** What `open` returns: the secret, and whether it was sealed with a key other than the current one. */
export interface OpenedSecret {
  readonly plaintext: string;
  readonly keyId: string;
  /** Sealed with an older key: seal it again with the current one (key rotation). */
  readonly stale: boolean;
}

/**
 * AES-256-GCM (Node's crypto) for the vCenter passwords at rest: `v1.<key id>.<iv>.<tag>.<ciphertext>`
 * (base64url), a fresh 96-bit IV per seal, the offering's uuid as additional authenticated data (a
 * ciphertext copied to another offering's row does not open). The first key seals; any key opens.
 */
export class CredentialCipher {
  private readonly byId: ReadonlyMap<string, Buffer>;

  constructor(private readonly keys: readonly CredentialKey[]) {
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
  }

  /** False when no key is configured: the adapter then refuses to store passwords. */
  get canSeal(): boolean {
    return this.keys.length > 0;
  }

  get currentKeyId(): string | undefined {
    return this.keys[0]?.id;
  }

  seal(plaintext: string, associatedData: string): string {
    const current = this.keys[0];
    if (current === undefined) throw new CredentialCipherError('no CREDENTIALS_KEYS configured');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, current.id, ...[iv, tag, ciphertext].map((b) => b.toString('base64url'))].join('.');
  }

  open(sealed: string, associatedData: string): OpenedSecret {
    const parts = sealed.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION)
      throw new CredentialCipherError('the stored password is not in a known format');
    const [, keyId, iv, tag, ciphertext] = parts;
    const key = this.byId.get(keyId);
    if (key === undefined)
      throw new CredentialCipherError(
        `the stored password was encrypted with key "${keyId}", which is not in CREDENTIALS_KEYS`,
      );
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plaintext = Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
      return { plaintext, keyId, stale: keyId !== this.currentKeyId };
    } catch {
      throw new CredentialCipherError(
        `the stored password does not decrypt with key "${keyId}" (wrong key or altered data)`,
      );
    }
  }
}
