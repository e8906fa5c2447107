import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { OfferingState, OfferingType } from '@app/contracts';

/** A provider's offering: what orders are placed against. */
@Entity({ name: 'offerings' })
export class OfferingEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('text')
  name!: string;

  /** Waldur's offering type, e.g. `VMware.VirtualMachine`: it routes OrderSubmitted to its adapter. */
  @Column('text')
  type!: OfferingType;

  /** The customer that provides it: a customer owning offerings is a service provider. Null for offerings made before customers existed. */
  @Column({ name: 'customer_uuid', type: 'uuid', nullable: true })
  customerUuid!: string | null;

  @Column('text')
  description!: string;

  @Column('text')
  category!: string;

  @Column({ name: 'terms_of_service', type: 'text' })
  termsOfService!: string;

  @Column('text')
  state!: OfferingState;

  /** How many days ahead a resource's end date may be (Waldur's plugin option); null: no limit. */
  @Column({ name: 'max_resource_termination_offset_in_days', type: 'integer', nullable: true })
  maxResourceTerminationOffsetInDays!: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
