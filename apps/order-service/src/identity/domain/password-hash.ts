import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes with Node's own scrypt: memory-hard, salted, its parameters written with each
 * hash (`scrypt$ln=15,r=8,p=1$<salt>$<hash>`, base64), so they can be raised later and old hashes
 * still verify (and are rehashed on the next login). N = 2^15 and r = 8 take 32 MiB and about
 * 50-130 ms per hash: slow for a guesser, bearable for a login.
 */
export interface ScryptParameters {
  ln: number;
  r: number;
  p: number;
}

export const CURRENT_PARAMETERS: ScryptParameters = { ln: 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
// Bounds on what a stored hash may ask for, so a corrupt row cannot make one check take minutes.
const MAX_LN = 20;
const MAX_R = 16;
const MAX_P = 4;

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    N: 2 ** parameters.ln,
    r: parameters.r,
    p: parameters.p,
    // scrypt needs 128 * N * r bytes; Node refuses above maxmem (32 MiB by default, exactly our need).
    maxmem: 256 * 2 ** parameters.ln * parameters.r,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(
  password: string,
  parameters: ScryptParameters = CURRENT_PARAMETERS,
): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, parameters);
  const { ln, r, p } = parameters;
  return `scrypt$ln=${ln},r=${r},p=${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface ParsedHash {
  parameters: ScryptParameters;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const match = /^scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(
    stored,
  );
  if (!match) return null;
  const parameters = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  if (parameters.ln < 1 || parameters.ln > MAX_LN || parameters.r < 1 || parameters.r > MAX_R) return null;
  if (parameters.p < 1 || parameters.p > MAX_P) return null;
  const key = Buffer.from(match[5], 'base64');
  return key.length === KEY_BYTES ? { parameters, salt: Buffer.from(match[4], 'base64'), key } : null;
}

/** A hash of no password anyone has: checked when the user is unknown, so the answer takes as long. */
const DECOY: ParsedHash = {
  parameters: CURRENT_PARAMETERS,
  salt: randomBytes(SALT_BYTES),
  key: randomBytes(KEY_BYTES),
};

/**
 * Whether `password` matches `stored`. A missing or malformed hash is a mismatch, after the same
 * work as a real check (no timing difference between "no such user" and "wrong password").
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  const target = parsed ?? DECOY;
  const key = await derive(password, target.salt, target.parameters);
  return parsed !== null && timingSafeEqual(key, parsed.key);
}

/** True when a hash was made with other parameters than today's: rehash it while the password is at hand. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  const { ln, r, p } = parsed.parameters;
  return ln !== CURRENT_PARAMETERS.ln || r !== CURRENT_PARAMETERS.r || p !== CURRENT_PARAMETERS.p;
}
