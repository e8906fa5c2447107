import type { ResourceView } from '@app/contracts';
import { Links, offeringScope, offeringScopeUuid, present } from './links';

const links = new Links('http://gw');
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function resourceView(overrides: Partial<ResourceView> = {}): ResourceView {
  return {
    uuid: uuid(1),
    name: 'vm-1',
    description: '',
    state: 'OK',
    offering_uuid: uuid(2),
    offering_name: 'VMs',
    offering_type: 'VMware.VirtualMachine',
    project_uuid: uuid(3),
    project_name: 'P',
    customer_uuid: uuid(4),
    customer_name: 'C',
    plan_uuid: null,
    plan_name: null,
    provider_uuid: uuid(5),
    provider_name: 'Provider',
    resource_uuid: '42100000-aaaa-bbbb-cccc-000000000001',
    backend_id: 'vm-42',
    resource_type: 'VMware.VirtualMachine',
    attributes: {},
    limits: {},
    cost: null,
    error_message: '',
    created: '2026-01-01T00:00:00.000Z',
    modified: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe("Waldur's scope links", () => {
  it("links a marketplace resource to its VM, as Waldur's scope does", () => {
    expect(present.resource(resourceView(), links).scope).toBe(
      'http://gw/api/vmware-virtual-machine/42100000-aaaa-bbbb-cccc-000000000001/',
    );
  });

  it('has no scope before the VM exists, once it is terminated, or for an offering processed by hand', () => {
    expect(present.resource(resourceView({ resource_uuid: null }), links).scope).toBeNull();
    expect(present.resource(resourceView({ state: 'Terminated' }), links).scope).toBeNull();
    const basic = resourceView({ resource_type: 'Marketplace.Basic', resource_uuid: 'ticket-7' });
    expect(present.resource(basic, links).scope).toBeNull();
  });

  it("gives a vSphere offering its integration as service settings, keyed by the offering's uuid", () => {
    const vsphere = { uuid: uuid(2), type: 'VMware.VirtualMachine' as const };
    expect(offeringScopeUuid(vsphere)).toBe(uuid(2));
    expect(offeringScope(vsphere, links)).toBe(`http://gw/api/service-settings/${uuid(2)}/`);
    const basic = { uuid: uuid(2), type: 'Marketplace.Basic' as const };
    expect([offeringScopeUuid(basic), offeringScope(basic, links)]).toEqual([null, null]);
  });
});
