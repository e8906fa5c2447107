// What the demo's vCenter (vcsim) offers: a Content Library with one Linux and one Windows template,
// named as providers name them, so the marketplace splits OS and version from the name.

/** The Content Library the demo templates are published in. */
export const DEMO_LIBRARY = 'Demo templates';

/** A template the demo publishes: a clone of a stock vcsim VM, shaped as below. */
export interface DemoTemplate {
  readonly name: string;
  readonly description: string;
  /** vim25 guest id; the front reports vCenter 8's GuestOS name for it. */
  readonly guestId: string;
  readonly numCPUs: number;
  readonly numCoresPerSocket: number;
  readonly memoryMB: number;
  /** Size of its one disk (vcsim's stock VMs have 1 MiB). */
  readonly diskGiB: number;
}

export const DEMO_TEMPLATES: readonly DemoTemplate[] = [
  {
    name: 'Ubuntu-24.04',
    description: 'Ubuntu Server 24.04 LTS',
    guestId: 'ubuntu64Guest',
    numCPUs: 2,
    numCoresPerSocket: 1,
    memoryMB: 4096,
    diskGiB: 20,
  },
  {
    name: 'WindowsServer-2022',
    description: 'Windows Server 2022 Standard',
    // vSphere 8 has `windows2019srvNext_64Guest` for 2022, but vcsim 0.24 refuses guest ids newer
    // than "Windows Server 2016 or later" (InvalidArgument configSpec.guestId); vAPI: WINDOWS_9_SERVER_64.
    guestId: 'windows9Server64Guest',
    numCPUs: 4,
    numCoresPerSocket: 2,
    memoryMB: 8192,
    diskGiB: 60,
  },
];
