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

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
