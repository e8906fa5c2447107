import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The price of one component under one plan, per the component's measured unit and month. */
@Entity({ name: 'plan_prices' })
export class PlanPriceEntity {
  @PrimaryColumn({ name: 'plan_uuid', type: 'uuid' })
  planUuid!: string;

  @PrimaryColumn({ name: 'component_type', type: 'text' })
  componentType!: string;

  /** numeric(16,4), read as its exact decimal string. */
  @Column('numeric')
  price!: string;
}
