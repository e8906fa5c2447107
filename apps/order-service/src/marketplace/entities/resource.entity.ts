import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { ResourceState } from '@app/contracts';

export type { ResourceState };

/** A marketplace resource: what an order creates, changes or terminates. */
@Entity({ name: 'resources' })
export class ResourceEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column('text')
  name!: string;

  @Column('text')
  description!: string;

  @Column('text')
  state!: ResourceState;

  @Column({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  @Column({ name: 'project_uuid', type: 'uuid' })
  projectUuid!: string;

  @Column({ name: 'plan_uuid', type: 'uuid', nullable: true })
  planUuid!: string | null;

  @Column('jsonb')
  attributes!: Record<string, unknown>;

  @Column('jsonb')
  limits!: Record<string, number>;

  @Column({ type: 'numeric', precision: 22, scale: 2, nullable: true })
  cost!: string | null;

  @Column({ name: 'error_message', type: 'text' })
  errorMessage!: string;

  /** The backend's own id (the VM's uuid in vCenter), Waldur's `resource_uuid` on the wire. */
  @Column({ name: 'backend_id', type: 'text', nullable: true })
  backendId!: string | null;

  /** The backend's reference of the object (the VM's managed object id, `vm-42`): `backend_id` on the wire. */
  @Column({ name: 'backend_ref', type: 'text', nullable: true })
  backendRef!: string | null;

  /** When `limits` were last taken from the backend's own report of the object (VmChanged). */
  @Column({ name: 'limits_observed_at', type: 'timestamptz', nullable: true })
  limitsObservedAt!: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  created!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  modified!: Date;
}
