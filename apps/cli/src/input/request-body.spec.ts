import { CliError } from '../cli-error';
import { omitNulls } from './omit-nulls';
import { parseRequestText, withAmbientProject } from './request-body';
import { genericSkeleton, openstackSkeleton, renderSkeleton, vmwareVmSkeleton } from './skeletons';

const PROJECT = '0b6f0cbb-2a4c-4f4e-9b8e-6a3f1c2d4e5f';

describe('request bodies', () => {
  it('omits null fields, nested ones too, and what only held nulls', () => {
    expect(
      omitNulls({
        offering: 'o',
        project: null,
        attributes: { name: 'vm', template: null, networks: [{ url: null }] },
        limits: {},
      }),
    ).toEqual({ offering: 'o', attributes: { name: 'vm' }, limits: {} });
    expect(omitNulls({ plan: null })).toBeUndefined();
    expect(omitNulls({ tags: [], options: {} })).toEqual({ tags: [], options: {} });
  });

  it('reads JSON and YAML, and refuses malformed input or a non-object with a usage error', () => {
    expect(parseRequestText('{"offering": "o", "plan": null}', '--request')).toEqual({ offering: 'o' });
    expect(parseRequestText('offering: o\nlimits:\n  cpu: 2\n', 'vm.yaml')).toEqual({
      offering: 'o',
      limits: { cpu: 2 },
    });
    expect(() => parseRequestText('{"offering": ', '--request')).toThrow(/--request: not valid JSON/);
    expect(() => parseRequestText('a: [1, 2', 'vm.yaml')).toThrow(/vm.yaml: not valid YAML/);
    expect(() => parseRequestText('[1, 2]', '--request')).toThrow(CliError);
  });

  it('fills the ambient project as its URL unless the body names one', () => {
    expect(withAmbientProject({ offering: 'o' }, PROJECT, 'http://h:1')).toEqual({
      offering: 'o',
      project: `http://h:1/api/projects/${PROJECT}/`,
    });
    expect(withAmbientProject({ project: 'mine' }, PROJECT, 'http://h:1')).toEqual({ project: 'mine' });
    expect(withAmbientProject({}, undefined, 'http://h:1')).toEqual({});
  });
});

describe('skeletons', () => {
  it('gives the generic envelope with a {name, description} stub and terms accepted', () => {
    expect(genericSkeleton()).toEqual({
      offering: null,
      project: null,
      plan: null,
      type: 'Create',
      attributes: { name: null, description: null },
      limits: {},
      accepting_terms_of_service: true,
    });
  });

  it("gives the VMware order's typed attributes and limits", () => {
    const skeleton = vmwareVmSkeleton();
    expect(Object.keys(skeleton.attributes as object)).toEqual([
      'name',
      'description',
      'template',
      'cores_per_socket',
      'cluster',
      'datastore',
      'folder',
      'networks',
    ]);
    expect(skeleton.limits).toEqual({ cpu: null, ram: null, disk: null });
  });

  it('renders as YAML that reads back, and a filled-in skeleton sends only what was filled', () => {
    const yaml = renderSkeleton(vmwareVmSkeleton(), 'yaml');
    expect(yaml).toContain('cores_per_socket: null');
    const filled = yaml.replace('template: null', 'template: t-1').replace('cpu: null', 'cpu: 2');
    expect(parseRequestText(filled, 'vm.yaml')).toEqual({
      type: 'Create',
      attributes: { template: 't-1' },
      limits: { cpu: 2 },
      accepting_terms_of_service: true,
    });
  });

  it("gives each OpenStack type's typed attributes, with Waldur's names, and a tenant's quotas as limits", () => {
    const instance = openstackSkeleton('OpenStack.Instance');
    expect(Object.keys(instance)).toEqual([
      'offering',
      'project',
      'plan',
      'type',
      'attributes',
      'limits',
      'accepting_terms_of_service',
    ]);
    expect(instance.attributes).toMatchObject({
      flavor: null,
      image: null,
      system_volume_size: null,
      ports: [{ subnet: null, fixed_ips: [{ ip_address: null, subnet_id: null }] }],
      floating_ips: [{ subnet: null, url: null }],
      security_groups: [{ url: null }],
      connect_directly_to_external_network: null,
    });
    expect(instance.limits).toEqual({});
    const tenant = openstackSkeleton('OpenStack.Tenant');
    expect(tenant.limits).toEqual({ cores: null, ram: null, storage: null });
    expect(tenant.attributes).toMatchObject({
      skip_connection_extnet: null,
      skip_creation_of_default_router: null,
      subnet_cidr: null,
    });
    expect(Object.keys(openstackSkeleton('OpenStack.Volume').attributes as object)).toEqual([
      'name',
      'description',
      'size',
      'type',
      'availability_zone',
      'image',
    ]);
  });

  it('sends of a filled-in instance skeleton only what was filled, nested list items included', () => {
    const yaml = renderSkeleton(openstackSkeleton('OpenStack.Instance'), 'yaml');
    const filled = yaml
      .replace('  name: null', '  name: vm-1')
      .replace('flavor: null', 'flavor: f-1')
      .replace('subnet: null', 'subnet: s-1'); // the first: the port's
    expect(parseRequestText(filled, 'vm.yaml')).toEqual({
      type: 'Create',
      attributes: { name: 'vm-1', flavor: 'f-1', ports: [{ subnet: 's-1' }] },
      limits: {},
      accepting_terms_of_service: true,
    });
    // Filling one skeleton in does not change the next one.
    (openstackSkeleton('OpenStack.Instance').attributes as { ports: object[] }).ports.push({});
    expect((openstackSkeleton('OpenStack.Instance').attributes as { ports: object[] }).ports).toHaveLength(1);
  });
});
