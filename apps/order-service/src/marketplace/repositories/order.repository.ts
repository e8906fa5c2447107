import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PENDING_ORDER_STATES } from '@app/contracts';
// jsonb columns typed as records do not fit TypeORM's deep-partial type: the entity is complete.
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { OrderEntity } from '../entities/order.entity';
import { translateDbErrors } from '../../identity';

export type OrderChanges = Partial<
  Pick<
    OrderEntity,
    | 'state'
    | 'errorMessage'
    | 'completedAt'
    | 'consumerReviewedBy'
    | 'consumerReviewedAt'
    | 'providerReviewedBy'
    | 'providerReviewedAt'
  >
>;

/** Orders (their resources have their own repository). */
@Injectable()
export class OrderRepository {
  /** Throws DuplicateRowError when another order of the resource is pending (the one-pending index). */
  async create(
    manager: EntityManager,
    order: Omit<OrderEntity, 'created' | 'modified' | 'completedAt' | 'errorMessage'> &
      Partial<Pick<OrderEntity, 'errorMessage'>>,
  ): Promise<OrderEntity> {
    // An insert, not `save`: save would first look the new uuid up.
    const entity = manager.getRepository(OrderEntity).create(order);
    await translateDbErrors(() =>
      manager.getRepository(OrderEntity).insert(entity as QueryDeepPartialEntity<OrderEntity>),
    );
    return entity;
  }

  /** Reads the order and locks it until the caller's transaction ends, so its changes apply one at a time. */
  async getForUpdate(manager: EntityManager, uuid: string): Promise<OrderEntity | null> {
    return manager
      .getRepository(OrderEntity)
      .findOne({ where: { uuid }, lock: { mode: 'pessimistic_write' } });
  }

  /** Whether an order of the resource other than `exceptOrder` is pending-consumer, pending-provider or executing. */
  async hasPending(
    manager: EntityManager,
    marketplaceResourceUuid: string,
    exceptOrder?: string,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM "marketplace"."orders"
       WHERE "resource_uuid" = $1 AND "state" = ANY($3::text[])
         AND "uuid" IS DISTINCT FROM $2::uuid
       LIMIT 1`,
      [marketplaceResourceUuid, exceptOrder ?? null, [...PENDING_ORDER_STATES]],
    );
    return rows.length > 0;
  }

  async update(manager: EntityManager, uuid: string, changes: OrderChanges): Promise<void> {
    await translateDbErrors(() => manager.getRepository(OrderEntity).update({ uuid }, changes));
  }
}
