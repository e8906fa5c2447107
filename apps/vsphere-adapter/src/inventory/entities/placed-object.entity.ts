import { Column } from 'typeorm';
import { InventoryObjectEntity } from './inventory-object.entity';

/** A vSphere object listed by vCenter in an order the defaults depend on ("the first one vCenter lists"). */
export abstract class PlacedObjectEntity extends InventoryObjectEntity {
  /** Its index in vCenter's last listing. */
  @Column('integer')
  position!: number;
}
