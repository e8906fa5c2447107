import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { ApiTokenEntity } from '../entities/api-token.entity';

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

  async getByHash(keyHash: string): Promise<ApiTokenEntity | null> {
    return this.dataSource.getRepository(ApiTokenEntity).findOneBy({ keyHash });
  }

  /** Revokes one token; true when it was live. */
  async revoke(keyHash: string): Promise<boolean> {
    const result = await this.dataSource
      .getRepository(ApiTokenEntity)
      .update({ keyHash, revokedAt: IsNull() }, { revokedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  /** Revokes every live token of a user; returns how many. */
  async revokeAllOf(userUuid: string): Promise<number> {
    const result = await this.dataSource
      .getRepository(ApiTokenEntity)
      .update({ userUuid, revokedAt: IsNull() }, { revokedAt: new Date() });
    return result.affected ?? 0;
  }
}
