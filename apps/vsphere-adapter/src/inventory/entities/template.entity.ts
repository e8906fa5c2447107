import { Column, Entity } from 'typeorm';
import { bigintNumber } from './bigint-number';
import { InventoryObjectEntity } from './inventory-object.entity';

/** A vm-template item of a Content Library the account can read, with its hardware (MiB). */
@Entity({ name: 'templates' })
export class TemplateEntity extends InventoryObjectEntity {
  @Column('text')
  description!: string;

  @Column({ name: 'guest_os', type: 'varchar' })
  guestOs!: string;

  @Column('integer')
  cores!: number;

  @Column({ name: 'cores_per_socket', type: 'integer' })
  coresPerSocket!: number;

  @Column('integer')
  ram!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  disk!: number;

  @Column({ name: 'nic_count', type: 'integer' })
  nicCount!: number;

  /** The item's `last_modified_time` when its details were read: unchanged, they are not read again. */
  @Column({ name: 'item_modified', type: 'varchar', nullable: true })
  itemModified!: string | null;

  /** When the details were last read from vCenter (they are read again past a maximum age). */
  @Column({ name: 'details_read_at', type: 'timestamptz', nullable: true })
  detailsReadAt!: Date | null;
}
