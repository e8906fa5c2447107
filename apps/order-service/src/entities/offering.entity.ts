import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A provider's offering: what orders are placed against. Grows with the provider issues. */
@Entity({ name: 'offerings' })
export class OfferingEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('text')
  name!: string;

  /** Waldur's offering type, e.g. `VMware.VirtualMachine`: it routes OrderSubmitted to its adapter. */
  @Column('text')
  type!: string;

  /** The customer that provides it: a customer owning offerings is a service provider. Null for offerings made before customers existed. */
  @Column({ name: 'customer_uuid', type: 'uuid', nullable: true })
  customerUuid!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
