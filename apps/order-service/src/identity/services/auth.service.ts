import { Inject, Injectable } from '@nestjs/common';
import { ok, refuse, type AuthenticatedCaller, type RequestReply } from '@app/contracts';
import { CONFIG } from '../../config/config.token';
import type { OrderServiceConfig } from '../../config/order-service.config';
import {
  generateTokenKey,
  hashTokenKey,
  renewedExpiry,
  tokenRefusal,
  type TokenRefusal,
} from '../domain/api-token';
import { ApiTokenRepository, type TokenWithUser } from '../repositories/api-token.repository';

type ResolvedUser = NonNullable<TokenWithUser['user']>;
import type { Transaction } from '@app/messaging';

/**
 * Resolves `Authorization: Token <key>` to a user, and issues and revokes tokens. Every token
 * lives `TOKEN_LIFETIME_S` past its last use (Waldur's sliding expiry, renewed at most once a minute).
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    @Inject(CONFIG) private readonly config: Pick<OrderServiceConfig, 'TOKEN_LIFETIME_S'>,
  ) {}

  private get lifetimeMs(): number {
    return this.config.TOKEN_LIFETIME_S * 1000;
  }

  async authenticate(key: string): Promise<RequestReply<AuthenticatedCaller>> {
    const resolved = await this.resolve(key);
    if ('refusal' in resolved) return refuse(401, resolved.refusal);
    const { user } = resolved;
    return ok({ user_uuid: user.uuid, username: user.username, is_staff: user.isStaff });
  }

  /** The live user a token key stands for, with their grants, or why it stands for nobody. */
  async resolve(key: string): Promise<{ user: ResolvedUser } | { refusal: TokenRefusal }> {
    const keyHash = hashTokenKey(key);
    const found = await this.tokens.getWithUser(keyHash);
    const now = new Date();
    const refusal = tokenRefusal(found?.token ?? null, found?.user ?? null, now);
    if (refusal || !found?.user) return { refusal: refusal ?? 'Invalid token.' };
    const expiresAt = renewedExpiry(found.token.expiresAt, this.lifetimeMs, now);
    if (expiresAt) await this.tokens.extend(keyHash, expiresAt, now);
    return { user: found.user };
  }

  /** A new token for the user; the key is returned once and only its hash is stored. */
  async issue(userUuid: string, tx?: Transaction): Promise<string> {
    const key = generateTokenKey();
    const now = new Date();
    await this.tokens.create(
      { keyHash: hashTokenKey(key), userUuid, expiresAt: new Date(now.getTime() + this.lifetimeMs) },
      tx,
    );
    await this.tokens.purgeDeadOf(userUuid, now, tx);
    return key;
  }

  /** Revokes every token of the user and issues the one that replaces them (inside the caller's transaction). */
  async replaceTokens(userUuid: string, tx: Transaction): Promise<string> {
    await this.tokens.revokeAllOf(userUuid, tx);
    return this.issue(userUuid, tx);
  }

  async revokeAllOf(userUuid: string, tx?: Transaction): Promise<number> {
    return this.tokens.revokeAllOf(userUuid, tx);
  }

  /**
   * Revokes the user's tokens but the one the request came with (`keptKeyHash`, when the user acts
   * on themselves): a password change signs out every other session, not the one that made it.
   */
  async revokeOthersOf(userUuid: string, keptKeyHash: string | undefined, tx: Transaction): Promise<number> {
    return keptKeyHash === undefined
      ? this.tokens.revokeAllOf(userUuid, tx)
      : this.tokens.revokeOthersOf(userUuid, keptKeyHash, tx);
  }
}
