// The vcsim front: vCenter 8's `/api` in front of vcsim's `/rest`, `/sdk` forwarded. See README.md.
export { startVcsimFront, startVcsimWithFront } from './start-front';
export type { StartVcsimFrontOptions, VcsimEndpoint, VcsimFront, VcsimWithFront } from './start-front';
export type { UndescribedDetails } from './front-context';
export { makeNvmeOnlyVm, setGuestToolsStatus } from './vm-fixtures';
