import { z } from 'zod';

/**
 * Authenticate: core NATS request-reply, asked by the gateway for every REST request, answered by
 * the order service. The key travels once, to the service that stores only its sha256 hash.
 * Replies 401 for an unknown, expired or revoked token and for an inactive user.
 */
export const AUTH_PATTERNS = { authenticate: 'marketplace.auth.authenticate' } as const;

export const authenticateRequestSchema = z.strictObject({ token: z.string().min(1).max(200) });

export interface AuthenticatedCaller {
  user_uuid: string;
  username: string;
  is_staff: boolean;
}
