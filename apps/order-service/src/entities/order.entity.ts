import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { OrderState } from '@app/contracts';

@Entity({ name: 'orders' })
export class OrderEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('text')
  type!: 'Create' | 'Update' | 'Terminate';

  @Column('text')
  state!: OrderState;

  @Column({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  @Column({ name: 'project_uuid', type: 'uuid' })
  projectUuid!: string;

  /** The marketplace resource, created together with the order (as Waldur does since 2023). */
  @Column({ name: 'resource_uuid', type: 'uuid' })
  resourceUuid!: string;

  @Column('jsonb')
  attributes!: Record<string, unknown>;

  @Column('jsonb')
  limits!: Record<string, number>;

  @Column({ name: 'error_message', type: 'text', default: '' })
  errorMessage!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;
}
