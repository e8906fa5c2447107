import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OfferingEntity } from '../entities/offering.entity';

@Injectable()
export class OfferingRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async create(offering: Pick<OfferingEntity, 'uuid' | 'name' | 'type'>): Promise<OfferingEntity> {
    return this.dataSource.getRepository(OfferingEntity).save(offering);
  }

  async getById(
    uuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OfferingEntity | null> {
    return manager.getRepository(OfferingEntity).findOneBy({ uuid });
  }
}
