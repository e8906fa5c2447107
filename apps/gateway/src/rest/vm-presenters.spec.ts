import { diskView, operationView, portView, testUuid, vmView } from '../../test/support/vm-view-factories';
import { Links } from './links';
import {
  disk,
  operation,
  port,
  presentDisk,
  presentOperation,
  presentPort,
  presentVm,
  vm,
} from './vm-presenters';

const links = new Links('http://gw');

describe('VM, disk, port and operation presenters', () => {
  it("gives a disk its own url and its VM's, and matches the documented schema", () => {
    const view = diskView();
    const shown = presentDisk(view, links);
    expect(shown).toEqual({
      url: `http://gw/api/vmware-disks/${view.uuid}/`,
      ...view,
      vm: `http://gw/api/vmware-virtual-machine/${view.vm_uuid}/`,
    });
    expect(disk.schema.safeParse(shown).success).toBe(true);
  });

  it('links a port to its network, or null when the network is gone', () => {
    const view = portView();
    expect(presentPort(view, links)).toMatchObject({
      url: `http://gw/api/vmware-ports/${view.uuid}/`,
      network: `http://gw/api/vmware-networks/${testUuid(31)}/`,
    });
    const orphan = presentPort(portView({ network_uuid: null }), links);
    expect(orphan).toMatchObject({ network: null });
    expect(port.schema.safeParse(orphan).success).toBe(true);
  });

  it("presents the VM's disks and ports as their own endpoints do", () => {
    const view = vmView({ disks: [diskView(), diskView({ uuid: testUuid(21) })] });
    const shown = presentVm(view, links) as { disks: object[]; ports: object[] };
    expect(shown).toMatchObject({
      url: `http://gw/api/vmware-virtual-machine/${view.uuid}/`,
      offering: `http://gw/api/marketplace-public-offerings/${view.offering_uuid}/`,
      project: `http://gw/api/projects/${String(view.project_uuid)}/`,
      customer: `http://gw/api/customers/${String(view.customer_uuid)}/`,
      service_settings: `http://gw/api/service-settings/${view.offering_uuid}/`,
      service_settings_uuid: view.offering_uuid,
    });
    expect(shown.disks).toEqual(view.disks.map((d) => presentDisk(d, links)));
    expect(shown.ports).toEqual(view.ports.map((p) => presentPort(p, links)));
    expect(vm.schema.safeParse(shown).success).toBe(true);
  });

  it('links an operation to its VM and to the device it concerns', () => {
    const shown = presentOperation(
      operationView({ operation: 'extend_disk', disk_uuid: testUuid(20) }),
      links,
    );
    expect(shown).toMatchObject({
      vm: 'http://gw/api/vmware-virtual-machine/4213a1b2-0000-0000-0000-000000000001/',
      disk: `http://gw/api/vmware-disks/${testUuid(20)}/`,
      port: null,
    });
    expect(operation.schema.safeParse(shown).success).toBe(true);
  });
});
