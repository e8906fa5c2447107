import { Column, PrimaryColumn } from 'typeorm';

/** What every imported vCenter object has: our uuid, its offering, vCenter's id and its name. */
export abstract class InventoryObjectEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  /** vCenter's managed object id (`domain-c8`), or the Content Library item id of a template. */
  @Column({ name: 'backend_id', type: 'varchar' })
  backendId!: string;

  @Column('varchar')
  name!: string;

  @Column('timestamptz')
  created!: Date;

  @Column('timestamptz')
  modified!: Date;
}
