import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { OrderState, OrderType } from '@app/contracts';

@Entity({ name: 'orders' })
export class OrderEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('text')
  type!: OrderType;

  @Column('text')
  state!: OrderState;

  @Column({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  @Column({ name: 'project_uuid', type: 'uuid' })
  projectUuid!: string;

  /** The marketplace resource, created together with the order (as Waldur does since 2023). */
  @Column({ name: 'resource_uuid', type: 'uuid' })
  marketplaceResourceUuid!: string;

  @Column({ name: 'plan_uuid', type: 'uuid', nullable: true })
  planUuid!: string | null;

  @Column('jsonb')
  attributes!: Record<string, unknown>;

  @Column('jsonb')
  limits!: Record<string, number>;

  /** Monthly cost of the limits under the plan, as a decimal string (numeric in Postgres). */
  @Column({ type: 'numeric', precision: 22, scale: 2, nullable: true })
  cost!: string | null;

  @Column({ name: 'error_message', type: 'text', default: '' })
  errorMessage!: string;

  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy!: string | null;

  @Column({ name: 'consumer_reviewed_by', type: 'uuid', nullable: true })
  consumerReviewedBy!: string | null;

  @Column({ name: 'consumer_reviewed_at', type: 'timestamptz', nullable: true })
  consumerReviewedAt!: Date | null;

  @Column({ name: 'provider_reviewed_by', type: 'uuid', nullable: true })
  providerReviewedBy!: string | null;

  @Column({ name: 'provider_reviewed_at', type: 'timestamptz', nullable: true })
  providerReviewedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
