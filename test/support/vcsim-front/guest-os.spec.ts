import { vapiGuestOs } from './guest-os';

// Enum names of vcenter.vm.GuestOS (vSphere Automation SDK), as vCenter 8 answers them.
const VAPI_NAMES = new Set(
  `AMAZONLINUX2_64 AMAZONLINUX3_64 ASIANUX_3 ASIANUX_3_64 ASIANUX_9_64 CENTOS CENTOS_64 CENTOS_7_64 CENTOS_9_64
   COREOS_64 CRXPOD_1 DARWIN DARWIN_64 DARWIN_21_64 DEBIAN_11_64 DEBIAN_10 DOS ECOMSTATION ECOMSTATION_2 FEDORA_64
   FREEBSD FREEBSD_13_64 GENERIC_LINUX OPENSERVER_5 OPENSUSE_64 ORACLE_LINUX_64 ORACLE_LINUX_9_64 OS2 OTHER
   OTHER_24X_LINUX_64 OTHER_26X_LINUX OTHER_3X_LINUX_64 OTHER_4X_LINUX_64 OTHER_5X_LINUX_64 OTHER_64 OTHER_LINUX
   OTHER_LINUX_64 REDHAT RHEL_7_64 RHEL_9_64 SLES_15_64 SLES_16_64 SOLARIS_11_64 UBUNTU UBUNTU_64 UNIXWARE_7
   VMKERNEL VMKERNEL_65 VMKERNEL_7 VMWARE_PHOTON_64 WINDOWS_7_SERVER_64 WINDOWS_9_64 WINDOWS_9_SERVER_64
   WINDOWS_HYPERV WINDOWS_SERVER_2019 WINDOWS_SERVER_2021 WIN_2000_ADV_SERV WIN_LONGHORN_64 WIN_NET_STANDARD_64
   WIN_NT WIN_XP_HOME WIN_XP_PRO_64`.split(/\s+/),
);

describe("vapiGuestOs: vCenter 8's enum spelling of vim25 guest ids", () => {
  it.each([
    ['windows2019srv_64Guest', 'WINDOWS_SERVER_2019'],
    ['windows2019srvNext_64Guest', 'WINDOWS_SERVER_2021'],
    ['other3xLinux64Guest', 'OTHER_3X_LINUX_64'],
    ['other26xLinuxGuest', 'OTHER_26X_LINUX'],
    ['amazonlinux2_64Guest', 'AMAZONLINUX2_64'],
    ['windowsHyperVGuest', 'WINDOWS_HYPERV'],
    ['winXPPro64Guest', 'WIN_XP_PRO_64'],
    ['os2Guest', 'OS2'],
    ['eComStation2Guest', 'ECOMSTATION_2'],
    ['ubuntu64Guest', 'UBUNTU_64'],
    ['rhel9_64Guest', 'RHEL_9_64'],
    ['otherGuest', 'OTHER'],
    ['otherGuest64', 'OTHER_64'],
    ['windows9Server64Guest', 'WINDOWS_9_SERVER_64'],
    ['win2000AdvServGuest', 'WIN_2000_ADV_SERV'],
    ['vmkernel65Guest', 'VMKERNEL_65'],
    ['vmwarePhoton64Guest', 'VMWARE_PHOTON_64'],
    ['oracleLinux9_64Guest', 'ORACLE_LINUX_9_64'],
    ['sles16_64Guest', 'SLES_16_64'],
  ])('%s → %s, a name of the enum', (guestId, name) => {
    expect(vapiGuestOs(guestId)).toBe(name);
    expect(VAPI_NAMES.has(name)).toBe(true);
  });

  it('answers OTHER for a VM without a guest id', () => {
    expect(vapiGuestOs(undefined)).toBe('OTHER');
    expect(vapiGuestOs('')).toBe('OTHER');
  });
});
