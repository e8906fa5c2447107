import { guestOsName } from './guest-os-name';

describe('guestOsName: Waldur-style readable names of vCenter guest OS identifiers', () => {
  it.each([
    ['UBUNTU_64', 'Ubuntu Linux (64-bit)'],
    ['DEBIAN_11_64', 'Debian GNU/Linux 11 (64-bit)'],
    ['RHEL_9_64', 'Red Hat Enterprise Linux 9 (64-bit)'],
    ['WINDOWS_SERVER_2019', 'Microsoft Windows Server 2019'],
    ['WINDOWS_SERVER_2021', 'Microsoft Windows Server 2022'],
    ['WINDOWS_9_64', 'Microsoft Windows 10 (64-bit)'],
    ['WINDOWS_11_64', 'Microsoft Windows 11 (64-bit)'],
    ['OTHER_LINUX_64', 'Other Linux (64-bit)'],
    ['OTHER_GUEST', 'Other'],
    ['OTHER_3X_LINUX_64', 'Other 3.x Linux (64-bit)'],
    ['OTHER_26X_LINUX', 'Other 2.6.x Linux'],
  ])('%s → %s', (id, name) => {
    expect(guestOsName(id)).toBe(name);
  });

  it('keeps an identifier of no known family, or with parts it cannot read, as vCenter spells it', () => {
    expect(guestOsName('SOLARIS_11_64')).toBe('SOLARIS_11_64');
    expect(guestOsName('WINDOWS_HYPERV')).toBe('WINDOWS_HYPERV');
  });
});
