import { Entity } from 'typeorm';
import { PlacedObjectEntity } from './placed-object.entity';

/** A vCenter folder that can hold VMs. */
@Entity({ name: 'folders' })
export class FolderEntity extends PlacedObjectEntity {}
