import { randomBytes } from 'node:crypto';

/**
 * A password for the demo's staff user: 18 random bytes as base64url (24 characters), so never
 * all digits and past Django's length rule, and without characters a terminal or a URL mangles.
 */
export function newDemoPassword(): string {
  return randomBytes(18).toString('base64url');
}
