import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { OfferingEntity } from '../entities/offering.entity';
import type { PageRequest } from '../../identity';
import { PlanPriceEntity } from '../entities/plan-price.entity';
import { PlanEntity } from '../entities/plan.entity';

export interface PlanWithPrices {
  plan: PlanEntity;
  /** component type → price per measured unit, as exact decimal strings. */
  prices: Record<string, string>;
}

@Injectable()
export class PlanRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async create(manager: EntityManager, plan: Omit<PlanEntity, 'created'>): Promise<PlanEntity> {
    const repository = manager.getRepository(PlanEntity);
    return repository.save(repository.create(plan));
  }

  async getById(uuid: string): Promise<PlanWithPrices | null> {
    const plan = await this.dataSource.getRepository(PlanEntity).findOneBy({ uuid });
    if (!plan) return null;
    return { plan, prices: (await this.pricesOf([uuid])).get(uuid) ?? {} };
  }

  /** The plans of these offerings with their prices, oldest first. */
  async ofOfferings(offeringUuids: string[]): Promise<Map<string, PlanWithPrices[]>> {
    const byOffering = new Map<string, PlanWithPrices[]>();
    if (offeringUuids.length === 0) return byOffering;
    const plans = await this.dataSource
      .getRepository(PlanEntity)
      .createQueryBuilder('p')
      .where('p.offering_uuid = ANY(:offerings)', { offerings: offeringUuids })
      .orderBy('p.created')
      .getMany();
    const prices = await this.pricesOf(plans.map((plan) => plan.uuid));
    for (const plan of plans) {
      const list = byOffering.get(plan.offeringUuid) ?? [];
      list.push({ plan, prices: prices.get(plan.uuid) ?? {} });
      byOffering.set(plan.offeringUuid, list);
    }
    return byOffering;
  }

  /**
   * Plans of provider offerings, oldest first. `providerUuids` limits them to Active offerings and
   * those providers' own; undefined means every plan (staff).
   */
  async list(
    filter: { offeringUuid?: string; providerUuids?: string[] },
    page: PageRequest,
  ): Promise<{ items: PlanWithPrices[]; count: number }> {
    const query = this.dataSource
      .getRepository(PlanEntity)
      .createQueryBuilder('p')
      .innerJoin(OfferingEntity, 'o', 'o.uuid = p.offering_uuid AND o.customer_uuid IS NOT NULL');
    if (filter.providerUuids)
      query.andWhere(`(o.state = 'Active' OR o.customer_uuid = ANY(:providers))`, {
        providers: filter.providerUuids,
      });
    if (filter.offeringUuid) query.andWhere('p.offering_uuid = :offering', { offering: filter.offeringUuid });
    const [plans, count] = await query
      .orderBy('p.created')
      .addOrderBy('p.uuid')
      .skip((page.page - 1) * page.pageSize)
      .take(page.pageSize)
      .getManyAndCount();
    const prices = await this.pricesOf(plans.map((plan) => plan.uuid));
    return { items: plans.map((plan) => ({ plan, prices: prices.get(plan.uuid) ?? {} })), count };
  }

  async setPrices(planUuid: string, prices: Record<string, string>): Promise<void> {
    const rows = Object.entries(prices).map(([componentType, price]) => ({ planUuid, componentType, price }));
    if (rows.length > 0)
      await this.dataSource.getRepository(PlanPriceEntity).upsert(rows, ['planUuid', 'componentType']);
  }

  private async pricesOf(planUuids: string[]): Promise<Map<string, Record<string, string>>> {
    const byPlan = new Map<string, Record<string, string>>();
    if (planUuids.length === 0) return byPlan;
    const rows = await this.dataSource
      .getRepository(PlanPriceEntity)
      .createQueryBuilder('pp')
      .where('pp.plan_uuid = ANY(:plans)', { plans: planUuids })
      .getMany();
    for (const row of rows) {
      const prices = byPlan.get(row.planUuid) ?? {};
      prices[row.componentType] = row.price;
      byPlan.set(row.planUuid, prices);
    }
    return byPlan;
  }
}
