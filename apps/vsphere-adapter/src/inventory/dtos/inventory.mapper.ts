import type {
  AssignmentKind,
  AssignmentView,
  ClusterView,
  DatastoreView,
  FolderView,
  NetworkView,
  TemplateView,
} from '@app/contracts';
import { guestOsName } from '../domain/guest-os-name';
import { splitTemplateName } from '../domain/template-name';
import type { ClusterEntity } from '../entities/cluster.entity';
import type { DatastoreEntity } from '../entities/datastore.entity';
import type { FolderEntity } from '../entities/folder.entity';
import type { NetworkEntity } from '../entities/network.entity';
import type { TemplateEntity } from '../entities/template.entity';
import type { AssignmentRow } from '../repositories/assignment.repository';

const base = (o: { uuid: string; offeringUuid: string; backendId: string; name: string }) => ({
  uuid: o.uuid,
  offering_uuid: o.offeringUuid,
  backend_id: o.backendId,
  name: o.name,
});

export function toTemplateView(t: TemplateEntity): TemplateView {
  const { os, version } = splitTemplateName(t.name);
  return {
    ...base(t),
    description: t.description,
    os,
    os_version: version,
    guest_os: t.guestOs,
    guest_os_name: guestOsName(t.guestOs),
    cores: t.cores,
    cores_per_socket: t.coresPerSocket,
    ram: t.ram,
    disk: t.disk,
    nic_count: t.nicCount,
    created: t.created.toISOString(),
    modified: t.modified.toISOString(),
  };
}

export const toClusterView = (c: ClusterEntity): ClusterView => base(c);
export const toFolderView = (f: FolderEntity): FolderView => base(f);
export const toNetworkView = (n: NetworkEntity): NetworkView => ({ ...base(n), type: n.type });
export const toDatastoreView = (d: DatastoreEntity): DatastoreView => ({
  ...base(d),
  type: d.type,
  capacity: d.capacity,
  free_space: d.freeSpace,
});

export function toAssignmentView(kind: AssignmentKind, row: AssignmentRow): AssignmentView {
  return {
    uuid: row.uuid,
    kind,
    customer_uuid: row.customerUuid,
    offering_uuid: row.object.offeringUuid,
    object_uuid: row.object.uuid,
    object_name: row.object.name,
    object_backend_id: row.object.backendId,
    created: row.created.toISOString(),
  };
}
