import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

export type ResourceState = 'Creating' | 'OK' | 'Erred' | 'Updating' | 'Terminating' | 'Terminated';

/** A marketplace resource: what an order creates, changes or terminates. */
@Entity({ name: 'resources' })
export class ResourceEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('text')
  name!: string;

  @Column('text')
  state!: ResourceState;

  @Column({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  @Column({ name: 'project_uuid', type: 'uuid' })
  projectUuid!: string;

  /** The backend's own id (the VM's uuid in vCenter), Waldur's `resource_uuid` on the wire. */
  @Column({ name: 'backend_id', type: 'text', nullable: true })
  backendId!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
