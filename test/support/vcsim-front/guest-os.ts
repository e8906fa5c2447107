/**
 * vim25 `config.guestId` → the `vcenter.vm.GuestOS` enum name vCenter 8's `/api` answers with. The
 * vAPI names are not a mechanical upper-casing of the vim25 ids (`windows2019srv_64Guest` is
 * `WINDOWS_SERVER_2019`, `other3xLinux64Guest` is `OTHER_3X_LINUX_64`, `amazonlinux2_64Guest` is
 * `AMAZONLINUX2_64`): the ids whose name differs are listed; the others follow the regular rule
 * (`ubuntu64Guest` → `UBUNTU_64`, `rhel9_64Guest` → `RHEL_9_64`, `otherGuest64` → `OTHER_64`).
 * Taken from the vSphere Automation SDK's GuestOS enumeration and the vim25
 * VirtualMachineGuestOsIdentifier list.
 */
const IRREGULAR: Readonly<Record<string, string>> = {
  amazonlinux2_64Guest: 'AMAZONLINUX2_64',
  amazonlinux3_64Guest: 'AMAZONLINUX3_64',
  crxPod1Guest: 'CRXPOD_1',
  eComStationGuest: 'ECOMSTATION',
  eComStation2Guest: 'ECOMSTATION_2',
  openServer5Guest: 'OPENSERVER_5',
  openServer6Guest: 'OPENSERVER_6',
  os2Guest: 'OS2',
  other24xLinuxGuest: 'OTHER_24X_LINUX',
  other24xLinux64Guest: 'OTHER_24X_LINUX_64',
  other26xLinuxGuest: 'OTHER_26X_LINUX',
  other26xLinux64Guest: 'OTHER_26X_LINUX_64',
  other3xLinuxGuest: 'OTHER_3X_LINUX',
  other3xLinux64Guest: 'OTHER_3X_LINUX_64',
  other4xLinuxGuest: 'OTHER_4X_LINUX',
  other4xLinux64Guest: 'OTHER_4X_LINUX_64',
  other5xLinuxGuest: 'OTHER_5X_LINUX',
  other5xLinux64Guest: 'OTHER_5X_LINUX_64',
  other6xLinuxGuest: 'OTHER_6X_LINUX',
  other6xLinux64Guest: 'OTHER_6X_LINUX_64',
  unixWare7Guest: 'UNIXWARE_7',
  winXPHomeGuest: 'WIN_XP_HOME',
  winXPProGuest: 'WIN_XP_PRO',
  winXPPro64Guest: 'WIN_XP_PRO_64',
  windowsHyperVGuest: 'WINDOWS_HYPERV',
  windows2019srv_64Guest: 'WINDOWS_SERVER_2019',
  windows2019srvNext_64Guest: 'WINDOWS_SERVER_2021',
};

/** The regular rule: drop `Guest`, split words and digits with `_`, upper-case. Pure. */
function regularName(guestId: string): string {
  return guestId
    .replace(/Guest/, '')
    .replace(/([a-z])([A-Z0-9])/g, '$1_$2')
    .replace(/([0-9])([A-Za-z])/g, '$1_$2')
    .replace(/_+/g, '_')
    .toUpperCase();
}

/** vim25 guestId → vCenter 8's `/api` guest OS (`OTHER` when the VM has none). Pure. */
export function vapiGuestOs(guestId: string | undefined): string {
  if (guestId === undefined || guestId === '') return 'OTHER';
  return IRREGULAR[guestId] ?? regularName(guestId);
}
