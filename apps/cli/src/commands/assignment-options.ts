import { VMWARE_ASSIGNMENT_PATHS } from '@app/contracts/http/api-paths';

/**
 * The kinds of customer assignment and the option naming each one's object, from the assignment
 * paths of libs/contracts (plain strings: the command tree reads them without loading the schemas).
 */
export const ASSIGNMENT_KIND_NAMES = Object.keys(
  VMWARE_ASSIGNMENT_PATHS,
) as (keyof typeof VMWARE_ASSIGNMENT_PATHS)[];

/** `--cluster` names a cluster of `clusters`, `--existing-vm-network` one of `existing-vm-networks`. */
export function assignmentOption(kind: string): string {
  return `--${kind.slice(0, -1)}`;
}

/** commander's key of an option: `--existing-vm-network` → `existingVmNetwork`. */
export function optionKey(option: string): string {
  return option.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
