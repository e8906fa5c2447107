import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
// jsonb columns typed as records do not fit TypeORM's deep-partial type: the entity is complete.
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ResourceEntity } from '../entities/resource.entity';
import { translateDbErrors } from '../../identity';

export type ResourceChanges = Partial<
  Pick<
    ResourceEntity,
    | 'state'
    | 'errorMessage'
    | 'backendId'
    | 'backendRef'
    | 'limits'
    | 'cost'
    | 'planUuid'
    | 'limitsObservedAt'
  >
>;

/** Marketplace resources: what orders create, change and terminate. */
@Injectable()
export class ResourceRepository {
  /** Throws ReferencedRowError when the project or offering is gone. */
  async create(
    manager: EntityManager,
    resource: Omit<ResourceEntity, 'created' | 'modified' | 'limitsObservedAt'>,
  ): Promise<void> {
    // An insert, not `save`: save would first look the new uuid up.
    const repository = manager.getRepository(ResourceEntity);
    const entity = repository.create(resource);
    await translateDbErrors(() => repository.insert(entity as QueryDeepPartialEntity<ResourceEntity>));
  }

  /** Locks the resource until the transaction ends: its orders and its events queue up behind the lock. */
  async getForUpdate(manager: EntityManager, uuid: string): Promise<ResourceEntity | null> {
    return manager
      .getRepository(ResourceEntity)
      .findOne({ where: { uuid }, lock: { mode: 'pessimistic_write' } });
  }

  async update(manager: EntityManager, uuid: string, changes: ResourceChanges): Promise<void> {
    if (Object.keys(changes).length > 0)
      await manager.getRepository(ResourceEntity).update({ uuid }, changes);
  }
}
