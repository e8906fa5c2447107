import { Injectable } from '@nestjs/common';
import { ok, refuse, type AuthenticatedCaller, type RequestReply } from '@app/contracts';
import type { EntityManager } from 'typeorm';
import { generateTokenKey, hashTokenKey, tokenRefusal } from '../domain/api-token';
import { ApiTokenRepository } from '../repositories/api-token.repository';
import { UserRepository } from '../repositories/user.repository';

/** Resolves `Authorization: Token <key>` to a user, and issues and revokes tokens. */
@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly users: UserRepository,
  ) {}

  async authenticate(key: string): Promise<RequestReply<AuthenticatedCaller>> {
    const token = await this.tokens.getByHash(hashTokenKey(key));
    const user = token ? await this.users.getById(token.userUuid) : null;
    const refusal = tokenRefusal(token, user, new Date());
    if (refusal || !user) return refuse(401, refusal ?? 'Invalid token.');
    return ok({ user_uuid: user.uuid, username: user.username, is_staff: user.isStaff });
  }

  /** A new token for the user; the key is returned once and only its hash is stored. */
  async issue(userUuid: string, expiresAt: Date | null, manager?: EntityManager): Promise<string> {
    const key = generateTokenKey();
    await this.tokens.create({ keyHash: hashTokenKey(key), userUuid, expiresAt }, manager);
    return key;
  }

  async revoke(key: string): Promise<boolean> {
    return this.tokens.revoke(hashTokenKey(key));
  }

  async revokeAllOf(userUuid: string): Promise<number> {
    return this.tokens.revokeAllOf(userUuid);
  }
}
