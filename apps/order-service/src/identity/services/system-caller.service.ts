import { Injectable } from '@nestjs/common';
import type { Principal } from '../domain/access-policy';
import { generateTokenKey, hashTokenKey } from '../domain/api-token';
import { ApiTokenRepository } from '../repositories/api-token.repository';
import { SYSTEM_USER, SystemUserRepository } from '../repositories/system-user.repository';

const TOKEN_LIFETIME_MS = 3_600_000;
/** A token is replaced while it still has this long to live: a request never carries one about to lapse. */
const RENEW_BEFORE_MS = 600_000;

/**
 * The system as a caller: the principal its orders are placed as (staff: it terminates in any
 * project), and a token of its own for the requests it makes to the vSphere adapter, which checks
 * it like any other. The token's key lives in this process's memory only, for an hour at most.
 */
@Injectable()
export class SystemCaller {
  private token?: { key: string; expiresAt: number };
  private ensured = false;

  constructor(
    private readonly users: SystemUserRepository,
    private readonly tokens: ApiTokenRepository,
  ) {}

  readonly principal: Principal = {
    userUuid: SYSTEM_USER.uuid,
    isStaff: true,
    ownedCustomers: new Set(),
    projectRoles: new Map(),
  };

  /** Makes sure the system user exists (once per process). */
  async ready(): Promise<void> {
    if (this.ensured) return;
    await this.users.ensure();
    this.ensured = true;
  }

  async tokenKey(now = Date.now()): Promise<string> {
    await this.ready();
    if (this.token && this.token.expiresAt - now > RENEW_BEFORE_MS) return this.token.key;
    const key = generateTokenKey();
    const expiresAt = now + TOKEN_LIFETIME_MS;
    await this.tokens.create({
      keyHash: hashTokenKey(key),
      userUuid: SYSTEM_USER.uuid,
      expiresAt: new Date(expiresAt),
    });
    this.token = { key, expiresAt };
    return key;
  }
}
