import { VM_GET } from './virtual-machine.requests';
import { DISK_LIST } from './vm-devices.requests';

describe('the VM id in paths and filters', () => {
  it("takes vCenter's instance uuid and a moref", () => {
    for (const uuid of ['420c6c5e-1b9a-4d3b-8f60-2a1f1c1e9b77', 'vm-42'])
      expect(VM_GET.params.safeParse({ uuid }).success).toBe(true);
  });

  it('refuses a NUL, a slash or an empty id before any query sees it', () => {
    for (const uuid of ['\0', 'a/b', '', 'x'.repeat(65)])
      expect(VM_GET.params.safeParse({ uuid }).success).toBe(false);
    expect(DISK_LIST.query.safeParse({ vm_uuid: '\0' }).success).toBe(false);
  });
});
