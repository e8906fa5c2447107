import { Inject, Injectable } from '@nestjs/common';
import { ok, refuse, type AuthenticatedCaller, type RequestReply } from '@app/contracts';
import { CONFIG } from '../config/config.token';
import type { OrderServiceConfig } from '../config/order-service.config';
import { generateTokenKey, hashTokenKey, renewedExpiry, tokenRefusal } from '../domain/api-token';
import { ApiTokenRepository } from '../repositories/api-token.repository';
import type { Transaction } from '../repositories/unit-of-work';
import { UserRepository } from '../repositories/user.repository';

/**
 * Resolves `Authorization: Token <key>` to a user, and issues and revokes tokens. Every token
 * lives `TOKEN_LIFETIME_S` past its last use (Waldur's sliding expiry, renewed at most once a minute).
 */
@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly users: UserRepository,
    @Inject(CONFIG) private readonly config: Pick<OrderServiceConfig, 'TOKEN_LIFETIME_S'>,
  ) {}

  private get lifetimeMs(): number {
    return this.config.TOKEN_LIFETIME_S * 1000;
  }

  async authenticate(key: string): Promise<RequestReply<AuthenticatedCaller>> {
    const keyHash = hashTokenKey(key);
    const token = await this.tokens.getByHash(keyHash);
    const user = token ? await this.users.getById(token.userUuid) : null;
    const now = new Date();
    const refusal = tokenRefusal(token, user, now);
    if (refusal || !token || !user) return refuse(401, refusal ?? 'Invalid token.');
    const expiresAt = renewedExpiry(token.expiresAt, this.lifetimeMs, now);
    if (expiresAt) await this.tokens.extend(keyHash, expiresAt, now);
    return ok({ user_uuid: user.uuid, username: user.username, is_staff: user.isStaff });
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
}
