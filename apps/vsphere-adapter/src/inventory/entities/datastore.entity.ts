import { Column, Entity } from 'typeorm';
import { bigintNumber } from './bigint-number';
import { PlacedObjectEntity } from './placed-object.entity';

/** A datastore with its type, capacity and free space in MB. */
@Entity({ name: 'datastores' })
export class DatastoreEntity extends PlacedObjectEntity {
  @Column('varchar')
  type!: string;

  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber })
  capacity!: number | null;

  @Column({ name: 'free_space', type: 'bigint', nullable: true, transformer: bigintNumber })
  freeSpace!: number | null;
}
