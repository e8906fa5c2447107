import { basicModeTemplateProblem, readTemplateDetails } from './template-details';

const GIB = 1024 ** 3;
const complete = {
  guest_OS: 'UBUNTU_64',
  cpu: { count: 4, cores_per_socket: 2 },
  memory: { size_MiB: 4096 },
  vm_home_storage: { datastore: 'datastore-11' },
  disks: { '2000': { capacity: 20 * GIB, disk_storage: {} }, '2001': { capacity: 512 * 1024 * 1024 } },
  nics: { '4000': { backing_type: 'STANDARD_PORTGROUP', network: 'network-7' } },
};

describe('readTemplateDetails', () => {
  it('reads CPU, cores per socket, memory, total disk in MiB, guest OS and NIC count', () => {
    expect(readTemplateDetails(complete)).toEqual({
      usable: true,
      hardware: {
        guestOs: 'UBUNTU_64',
        cores: 4,
        coresPerSocket: 2,
        ramMiB: 4096,
        diskMiB: 20 * 1024 + 512,
        nicCount: 1,
      },
    });
  });

  it('counts no NICs when vCenter omits them', () => {
    const withoutNics: Record<string, unknown> = { ...complete };
    delete withoutNics.nics;
    expect(readTemplateDetails(withoutNics)).toMatchObject({ usable: true, hardware: { nicCount: 0 } });
  });

  it.each([undefined, null, {}])('skips an empty answer (%p)', (raw) => {
    expect(readTemplateDetails(raw)).toEqual({
      usable: false,
      reason: 'vCenter returned no details for it (an empty answer).',
    });
  });

  it("skips vCenter's skeleton, naming everything missing", () => {
    expect(readTemplateDetails({ cpu: {}, memory: {}, vm_home_storage: {} })).toEqual({
      usable: false,
      reason:
        'vCenter did not report cpu.count, cpu.cores_per_socket, memory.size_MiB, disks (capacity), guest_OS for it.',
    });
  });

  it('skips a template without disks or with a disk of unknown capacity', () => {
    expect(readTemplateDetails({ ...complete, disks: {} })).toEqual({
      usable: false,
      reason: 'vCenter did not report disks (capacity) for it.',
    });
    expect(readTemplateDetails({ ...complete, disks: { '2000': { disk_storage: {} } } })).toMatchObject({
      usable: false,
    });
  });

  it('skips zero memory and a non-integer CPU count', () => {
    expect(readTemplateDetails({ ...complete, memory: { size_MiB: 0 } })).toMatchObject({
      usable: false,
      reason: 'vCenter did not report memory.size_MiB for it.',
    });
    expect(readTemplateDetails({ ...complete, cpu: { count: '4', cores_per_socket: 1 } })).toMatchObject({
      usable: false,
    });
  });

  it('skips an answer that is not an object', () => {
    expect(readTemplateDetails('vm-12')).toMatchObject({ usable: false });
  });
});

describe('basicModeTemplateProblem', () => {
  it('accepts exactly one NIC and refuses none or two', () => {
    expect(basicModeTemplateProblem(1)).toBeUndefined();
    expect(basicModeTemplateProblem(0)).toMatch(/exactly one network adapter are offered; it has 0\./);
    expect(basicModeTemplateProblem(2)).toMatch(/it has 2/);
  });
});
