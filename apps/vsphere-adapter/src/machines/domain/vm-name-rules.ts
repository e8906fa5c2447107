/**
 * vCenter's longest virtual machine name: 80 characters since vCenter Server 5.0 (VMware KB 2051649,
 * as the University of Toronto ITS page "Virtual Machine Naming" cites it), "fewer if the
 * characters %, \ or / are used" (the vSphere Client's refusal, recorded against vCenter 6.7 in
 * "maximum character lengths for objects", fourteenfold73.rssing.com). How many fewer is not
 * written; we count each of the three as 3, its escaped form (`%2f`), which refuses the most.
 */
export const MAX_VM_NAME_LENGTH = 80;

export const VM_NAME_TOO_LONG =
  `Ensure this field has no more than ${MAX_VM_NAME_LENGTH} characters ` +
  '(vCenter counts each %, \\ and / as 3).';

/** The length vCenter gives `name`: %, \ and / count 3 (escaped), any other code point 1. Pure. */
export function vcenterNameLength(name: string): number {
  let length = 0;
  for (const ch of name) length += ch === '%' || ch === '\\' || ch === '/' ? 3 : 1;
  return length;
}

/** Why vCenter would refuse `name` for a virtual machine, or null. Pure. */
export function vmNameRefusal(name: string): string | null {
  return vcenterNameLength(name) > MAX_VM_NAME_LENGTH ? VM_NAME_TOO_LONG : null;
}
