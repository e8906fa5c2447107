import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A plan of an offering: the prices its orders are billed at (monthly, per component). */
@Entity({ name: 'plans' })
export class PlanEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  @Column('text')
  name!: string;

  @Column('boolean')
  archived!: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
