/**
 * Identifiers whose name cannot be read off their parts: vSphere numbers some Windows releases by
 * their internal version (`WINDOWS_9` is Windows 10, `WINDOWS_SERVER_2021` is Server 2022).
 */
const EXACT: Readonly<Record<string, string>> = {
  WINDOWS_9: 'Microsoft Windows 10',
  WINDOWS_9_64: 'Microsoft Windows 10 (64-bit)',
  WINDOWS_9_SERVER_64: 'Microsoft Windows Server 2016',
  WINDOWS_SERVER_2021: 'Microsoft Windows Server 2022',
  OTHER_GUEST: 'Other',
  OTHER_GUEST_64: 'Other (64-bit)',
};

/** Families by their identifier prefix, longest first where one prefix holds another. */
const FAMILIES: readonly (readonly [string, string])[] = [
  ['WINDOWS_SERVER', 'Microsoft Windows Server'],
  ['WINDOWS', 'Microsoft Windows'],
  ['UBUNTU', 'Ubuntu Linux'],
  ['DEBIAN', 'Debian GNU/Linux'],
  ['CENTOS', 'CentOS'],
  ['RHEL', 'Red Hat Enterprise Linux'],
  ['SLES', 'SUSE Linux Enterprise'],
  ['ROCKYLINUX', 'Rocky Linux'],
  ['ALMALINUX', 'AlmaLinux'],
  ['ORACLE_LINUX', 'Oracle Linux'],
  ['FREEBSD', 'FreeBSD'],
  ['VMWARE_PHOTON', 'VMware Photon OS'],
  ['OTHER_LINUX', 'Other Linux'],
];

/**
 * Waldur's `guest_os_name` of a template: the readable name of vCenter's guest OS identifier
 * (`DEBIAN_11_64` → "Debian GNU/Linux 11 (64-bit)"). An identifier of no known family keeps the
 * spelling vCenter gave it (a name, not a guess). Pure.
 */
export function guestOsName(guestOs: string): string {
  const exact = EXACT[guestOs];
  if (exact !== undefined) return exact;
  // Generic Linux by kernel series: OTHER_3X_LINUX_64 is 3.x, OTHER_26X_LINUX is 2.6.x.
  const kernel = /^OTHER_(\d)(\d?)X_LINUX(_64)?$/.exec(guestOs);
  if (kernel !== null)
    return `Other ${kernel[1]}.${kernel[2] ? `${kernel[2]}.` : ''}x Linux${kernel[3] ? ' (64-bit)' : ''}`;
  const family = FAMILIES.find(([prefix]) => guestOs === prefix || guestOs.startsWith(`${prefix}_`));
  if (family === undefined) return guestOs;
  const parts = guestOs.slice(family[0].length).split('_').filter(Boolean);
  const bits = parts.at(-1) === '64' ? ' (64-bit)' : '';
  const version = (bits ? parts.slice(0, -1) : parts).join('.');
  if (version !== '' && !/^[0-9.]+$/.test(version)) return guestOs;
  return `${family[1]}${version ? ` ${version}` : ''}${bits}`;
}
