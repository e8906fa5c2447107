import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { OfferingState, OfferingType } from '@app/contracts';
import { OfferingEntity } from '../entities/offering.entity';
import type { PageRequest } from '../../identity';
import type { ProviderOffering } from '../dtos/offering.mapper';

export type OfferingFields = Pick<
  OfferingEntity,
  'name' | 'description' | 'category' | 'termsOfService' | 'maxResourceTerminationOffsetInDays'
>;

export interface OfferingFilter {
  /** Any type name: one this marketplace has no offerings of matches none (Waldur's loose filter). */
  type?: string;
  state?: OfferingState;
  customerUuid?: string;
  name?: string;
  /** Only offerings of these providers; undefined for all. */
  providerUuids?: string[];
}

@Injectable()
export class OfferingRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async create(
    offering: Omit<OfferingEntity, 'created' | 'modified' | 'maxResourceTerminationOffsetInDays'>,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OfferingEntity> {
    const repository = manager.getRepository(OfferingEntity);
    return repository.save(repository.create(offering));
  }

  async getById(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OfferingEntity | null> {
    return manager.getRepository(OfferingEntity).findOneBy({ uuid });
  }

  /** The offering's type alone (read in `tx`): what an OrderSubmitted of an order without a view names. */
  async getTypeById(tx: EntityManager, uuid: string): Promise<string> {
    const rows: { type: string }[] = await tx.query(
      `SELECT "type" FROM "marketplace"."offerings" WHERE "uuid" = $1`,
      [uuid],
    );
    return rows[0].type;
  }

  /** Locks the offering's row until the transaction ends: state changes of one offering queue up. */
  async getForUpdate(manager: EntityManager, uuid: string): Promise<OfferingEntity | null> {
    return manager
      .getRepository(OfferingEntity)
      .createQueryBuilder('o')
      .setLock('pessimistic_write')
      .where('o.uuid = :uuid', { uuid })
      .getOne();
  }

  async list(
    filter: OfferingFilter,
    page: PageRequest,
  ): Promise<{ items: ProviderOffering[]; count: number }> {
    const query = this.dataSource
      .getRepository(OfferingEntity)
      .createQueryBuilder('o')
      .where('o.customer_uuid IS NOT NULL');
    if (filter.providerUuids)
      query.andWhere('o.customer_uuid = ANY(:providers)', { providers: filter.providerUuids });
    if (filter.type) query.andWhere('o.type = :type', { type: filter.type });
    if (filter.state) query.andWhere('o.state = :state', { state: filter.state });
    if (filter.customerUuid) query.andWhere('o.customer_uuid = :customer', { customer: filter.customerUuid });
    if (filter.name) query.andWhere('o.name ILIKE :name', { name: `%${escapeLike(filter.name)}%` });
    const [items, count] = await query
      .orderBy('o.created', 'DESC')
      .addOrderBy('o.uuid')
      .skip((page.page - 1) * page.pageSize)
      .take(page.pageSize)
      .getManyAndCount();
    return { items: items as ProviderOffering[], count };
  }

  /** Every offering of a type that is not archived, provider offerings only. */
  async uuidsOfType(type: OfferingType): Promise<string[]> {
    const rows = await this.dataSource
      .getRepository(OfferingEntity)
      .createQueryBuilder('o')
      .select('o.uuid', 'uuid')
      .where('o.type = :type AND o.state <> :archived AND o.customer_uuid IS NOT NULL', {
        type,
        archived: 'Archived',
      })
      .orderBy('o.created')
      .getRawMany<{ uuid: string }>();
    return rows.map((row) => row.uuid);
  }

  async update(
    manager: EntityManager,
    uuid: string,
    changes: Partial<OfferingFields & { state: OfferingState }>,
  ) {
    if (Object.keys(changes).length > 0)
      await manager.getRepository(OfferingEntity).update({ uuid }, changes);
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}
