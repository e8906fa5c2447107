import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { ProjectRecord } from '../domain/records';

@Entity({ name: 'projects' })
export class ProjectEntity implements ProjectRecord {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'customer_uuid', type: 'uuid' })
  customerUuid!: string;

  @Column('varchar')
  name!: string;

  @Column('varchar')
  description!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;
}
