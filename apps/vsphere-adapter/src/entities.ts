import { IntegrationEntity } from './integration/entities/integration.entity';
import { ClusterEntity } from './inventory/entities/cluster.entity';
import {
  CustomerClusterEntity,
  CustomerDatastoreEntity,
  CustomerFolderEntity,
  CustomerNetworkEntity,
  CustomerNetworkPairEntity,
} from './inventory/entities/customer-assignment.entity';
import { DatastoreEntity } from './inventory/entities/datastore.entity';
import { FolderEntity } from './inventory/entities/folder.entity';
import { NetworkEntity } from './inventory/entities/network.entity';
import { OfferingStateEntity } from './inventory/entities/offering-state.entity';
import { TemplateEntity } from './inventory/entities/template.entity';

/** Every TypeORM entity of the `vsphere` schema. */
export const VSPHERE_ENTITIES = [
  IntegrationEntity,
  OfferingStateEntity,
  TemplateEntity,
  ClusterEntity,
  NetworkEntity,
  DatastoreEntity,
  FolderEntity,
  CustomerClusterEntity,
  CustomerNetworkEntity,
  CustomerNetworkPairEntity,
  CustomerDatastoreEntity,
  CustomerFolderEntity,
];
