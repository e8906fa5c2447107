import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, LessThan, MoreThan, Not, type EntityManager } from 'typeorm';
import { queryPrepared, type PreparedStatement } from '@app/platform/persistence/prepared-query';
import { ApiTokenEntity } from '../entities/api-token.entity';
import { USER_GRANTS_COLUMNS, type UserGrants } from './role-grant.repository';

/** How long a dead (revoked or expired) token is kept before it is deleted: enough to read "Token has expired." */
const DEAD_TOKEN_KEPT_MS = 24 * 3_600_000;

export interface TokenWithUser {
  token: { expiresAt: Date; revokedAt: Date | null };
  user: { uuid: string; username: string; isStaff: boolean; isActive: boolean; grants: UserGrants } | null;
}

// Every REST request runs it: named, so Postgres plans its grant aggregates once per connection.
const TOKEN_WITH_USER: PreparedStatement = {
  name: 'api-token-with-user',
  text: `
  SELECT t.expires_at, t.revoked_at, u.uuid, u.username, u.is_staff, u.is_active,
    ${USER_GRANTS_COLUMNS}
  FROM marketplace.api_tokens t LEFT JOIN marketplace.users u ON u.uuid = t.user_uuid
  WHERE t.key_hash = $1`,
};

/** API tokens, by the sha256 of their key: the key itself is never handed to this repository. */
@Injectable()
export class ApiTokenRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async create(
    token: Pick<ApiTokenEntity, 'keyHash' | 'userUuid' | 'expiresAt'>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.getRepository(ApiTokenEntity).insert({ ...token, revokedAt: null });
  }

  /**
   * The token, its user and the user's grants in one round trip: what a REST request's
   * authentication and access check read, as one statement rather than five.
   */
  async getWithUser(keyHash: string): Promise<TokenWithUser | null> {
    const rows = await queryPrepared<{
      expires_at: Date;
      revoked_at: Date | null;
      uuid: string | null;
      username: string | null;
      is_staff: boolean | null;
      is_active: boolean | null;
      customers: UserGrants['customers'];
      projects: UserGrants['projects'];
    }>(this.dataSource, TOKEN_WITH_USER, [keyHash]);
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      token: { expiresAt: row.expires_at, revokedAt: row.revoked_at },
      user:
        row.uuid === null
          ? null
          : {
              uuid: row.uuid,
              username: row.username ?? '',
              isStaff: !!row.is_staff,
              isActive: !!row.is_active,
              grants: { customers: row.customers, projects: row.projects },
            },
    };
  }

  /**
   * Moves a live token's expiry to `expiresAt`, unless another request renewed it to at least as
   * far meanwhile or it died meanwhile (revoked or expired): a race never revives a token.
   */
  async extend(keyHash: string, expiresAt: Date, now: Date): Promise<void> {
    await this.dataSource
      .getRepository(ApiTokenEntity)
      .createQueryBuilder()
      .update()
      .set({ expiresAt })
      .where('key_hash = :keyHash AND revoked_at IS NULL', { keyHash })
      .andWhere('expires_at > :now AND expires_at < :expiresAt', { now, expiresAt })
      .execute();
  }

  /** Revokes every live token of a user; returns how many. */
  async revokeAllOf(userUuid: string, manager: EntityManager = this.dataSource.manager): Promise<number> {
    const result = await manager
      .getRepository(ApiTokenEntity)
      .update({ userUuid, revokedAt: IsNull() }, { revokedAt: new Date() });
    return result.affected ?? 0;
  }

  /** Revokes every live token of a user but the one with `keptKeyHash`; returns how many. */
  async revokeOthersOf(userUuid: string, keptKeyHash: string, manager: EntityManager): Promise<number> {
    const result = await manager
      .getRepository(ApiTokenEntity)
      .update({ userUuid, revokedAt: IsNull(), keyHash: Not(keptKeyHash) }, { revokedAt: new Date() });
    return result.affected ?? 0;
  }

  /** Deletes a user's tokens that died more than a day ago, so logging in often does not grow the table for ever. */
  async purgeDeadOf(
    userUuid: string,
    now: Date,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const before = new Date(now.getTime() - DEAD_TOKEN_KEPT_MS);
    const tokens = manager.getRepository(ApiTokenEntity);
    await tokens.delete({ userUuid, revokedAt: LessThan(before) });
    await tokens.delete({ userUuid, expiresAt: LessThan(before) });
  }

  /** How many tokens of a user still authenticate. */
  async countLiveOf(userUuid: string, now: Date): Promise<number> {
    return this.dataSource
      .getRepository(ApiTokenEntity)
      .countBy({ userUuid, revokedAt: IsNull(), expiresAt: MoreThan(now) });
  }
}
