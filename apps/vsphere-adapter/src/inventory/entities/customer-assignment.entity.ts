import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An organisation may use one vCenter object (one table per kind, each with its foreign key). */
export abstract class CustomerAssignmentEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'customer_uuid', type: 'uuid' })
  customerUuid!: string;

  @Column({ name: 'object_uuid', type: 'uuid' })
  objectUuid!: string;

  @Column('timestamptz')
  created!: Date;
}

/** Waldur's CustomerCluster. */
@Entity({ name: 'customer_clusters' })
export class CustomerClusterEntity extends CustomerAssignmentEntity {}

/** Waldur's CustomerNetwork: networks for new VMs. */
@Entity({ name: 'customer_networks' })
export class CustomerNetworkEntity extends CustomerAssignmentEntity {}

/** Waldur's CustomerNetworkPair: networks for adapters added to existing VMs. */
@Entity({ name: 'customer_network_pairs' })
export class CustomerNetworkPairEntity extends CustomerAssignmentEntity {}

/** Waldur's CustomerDatastore. */
@Entity({ name: 'customer_datastores' })
export class CustomerDatastoreEntity extends CustomerAssignmentEntity {}

/** Waldur's CustomerFolder. */
@Entity({ name: 'customer_folders' })
export class CustomerFolderEntity extends CustomerAssignmentEntity {}
