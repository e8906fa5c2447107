import { z } from 'zod';
import type { RequestReply } from '../requests/request-reply';
import { publicOperation } from './operation';
import { secret, text } from './wire-fields';

/**
 * Authenticate: core NATS request-reply, asked by the gateway for every REST request, answered by
 * the order service. The key travels once, to the service that stores only its sha256 hash.
 * Replies 401 for an unknown, expired or revoked token and for an inactive user; a live token's
 * expiry slides forward on use (at most one write a minute per token).
 */
export const AUTH_PATTERNS = { authenticate: 'marketplace.auth.authenticate' } as const;

export const authenticateRequestSchema = z.strictObject({ token: z.string().min(1).max(200) });

export interface AuthenticatedCaller {
  user_uuid: string;
  username: string;
  is_staff: boolean;
}

/** Waldur's login body: `{"username": "...", "password": "..."}`. */
export const loginBody = z.strictObject({ username: text(150), password: secret() });

/**
 * `POST /api-auth/password/`: core NATS request-reply, asked by the gateway without a token,
 * answered by the order service with a new token, or with one message for a wrong username and a
 * wrong password alike. Attempts are counted per username from the client's address, per
 * username from any address and per address, in Postgres; past a limit the answer is 429 until
 * the window ends. The address is the gateway's view of the client (`TRUSTED_PROXIES`).
 */
export const LOGIN_OPERATION = publicOperation('marketplace.auth.login', loginBody);

/** A token, shown once: the answer of login and of `refresh_token`. */
export const tokenViewSchema = z.object({ token: z.string() });
export type TokenView = z.infer<typeof tokenViewSchema>;

/** A refusal to try again later: the gateway answers 429 with `Retry-After`. */
export interface ThrottledReply {
  status: 'error';
  code: 429;
  detail: string;
  retry_after_s: number;
}

export type LoginReply = RequestReply<TokenView> | ThrottledReply;

/** Django REST framework's throttling message. */
export function throttled(retryAfterS: number): ThrottledReply {
  return {
    status: 'error',
    code: 429,
    detail: `Request was throttled. Expected available in ${retryAfterS} seconds.`,
    retry_after_s: retryAfterS,
  };
}
