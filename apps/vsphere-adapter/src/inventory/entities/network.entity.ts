import type { NetworkType } from '@app/contracts';
import { Column, Entity } from 'typeorm';
import { PlacedObjectEntity } from './placed-object.entity';

/** A standard port group, distributed port group or opaque (NSX) network. */
@Entity({ name: 'networks' })
export class NetworkEntity extends PlacedObjectEntity {
  @Column('varchar')
  type!: NetworkType;
}
