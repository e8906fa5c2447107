import { Entity } from 'typeorm';
import { PlacedObjectEntity } from './placed-object.entity';

/** A vCenter cluster (ClusterComputeResource). */
@Entity({ name: 'clusters' })
export class ClusterEntity extends PlacedObjectEntity {}
