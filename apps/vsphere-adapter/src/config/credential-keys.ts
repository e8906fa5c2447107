/** One key of `CREDENTIALS_KEYS`: its id (stored beside each ciphertext) and 32 bytes for AES-256-GCM. */
export interface CredentialKey {
  readonly id: string;
  readonly key: Buffer;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * Reads `CREDENTIALS_KEYS` = `id:base64key[,id:base64key...]`: the first key encrypts, every key
 * decrypts (so a new key goes first and the old ones stay until the credentials are re-encrypted).
 * Unset: no keys (the adapter then refuses to store passwords). Returns the problems instead of
 * throwing, and never repeats the value: it is a secret. Pure.
 */
export function parseCredentialKeys(value: string | undefined): {
  keys: CredentialKey[];
  problems: string[];
} {
  if (value === undefined || value.trim() === '') return { keys: [], problems: [] };
  const keys: CredentialKey[] = [];
  const problems: string[] = [];
  value.split(',').forEach((entry, index) => {
    const at = `entry ${index + 1}`;
    const colon = entry.indexOf(':');
    const id = entry.slice(0, Math.max(colon, 0)).trim();
    const encoded = entry.slice(colon + 1).trim();
    if (colon < 0 || !KEY_ID.test(id)) {
      problems.push(`${at} must be id:base64key with an id of letters, digits, _ or - (at most 32)`);
      return;
    }
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== 32 || key.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) {
      problems.push(`${at} (id "${id}") must be 32 bytes in base64 (e.g. \`openssl rand -base64 32\`)`);
      return;
    }
    if (keys.some((k) => k.id === id)) {
      problems.push(`${at}: the id "${id}" is used twice`);
      return;
    }
    keys.push({ id, key });
  });
  return { keys, problems };
}
