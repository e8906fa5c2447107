import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OrderEntity } from '../entities/order.entity';
import { ResourceEntity } from '../entities/resource.entity';

/** Orders and the marketplace resources they create, written together. */
@Injectable()
export class OrderRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async create(
    manager: EntityManager,
    order: Partial<OrderEntity>,
    resource: Partial<ResourceEntity>,
  ): Promise<OrderEntity> {
    await manager.getRepository(ResourceEntity).insert(resource);
    return manager.getRepository(OrderEntity).save(manager.create(OrderEntity, order));
  }

  async getById(uuid: string): Promise<OrderEntity | null> {
    return this.dataSource.getRepository(OrderEntity).findOneBy({ uuid });
  }

  /** Reads the order and locks it until the caller's transaction ends, so concurrent outcomes apply one at a time. */
  async getForUpdate(manager: EntityManager, uuid: string): Promise<OrderEntity | null> {
    return manager
      .getRepository(OrderEntity)
      .findOne({ where: { uuid }, lock: { mode: 'pessimistic_write' } });
  }

  async update(
    manager: EntityManager,
    uuid: string,
    changes: Partial<Pick<OrderEntity, 'state' | 'errorMessage' | 'completedAt'>>,
  ): Promise<void> {
    await manager.getRepository(OrderEntity).update({ uuid }, changes);
  }

  async updateResource(
    manager: EntityManager,
    uuid: string,
    changes: Partial<ResourceEntity>,
  ): Promise<void> {
    await manager.getRepository(ResourceEntity).update({ uuid }, changes);
  }

  async getResource(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<ResourceEntity | null> {
    return manager.getRepository(ResourceEntity).findOneBy({ uuid });
  }
}
