/**
 * The old space (V8's heap of long-lived objects, in MB) the adapter runs under unless its start
 * names one. Its live heap is about 41 MB whatever the number of VMs (bench/README.md, `drift`):
 * the rest of an uncapped heap is garbage V8 lets grow with its default limits (4 GB here), so the
 * RSS follows the number of VMs read. Every read of all VMs goes a page at a time (the pull, the
 * subscription's first comparison), so what is live at once is bounded by a page.
 */
export const ADAPTER_OLD_SPACE_MB = 192;

const NAMES_A_CAP = /^--max[-_]old[-_]space[-_]size(=|$)/;

/**
 * The Node arguments to start the adapter again with, the cap first; undefined when the start
 * already names a cap (on the command line or in NODE_OPTIONS): an operator's choice wins. Pure.
 */
export function withHeapCap(
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  megabytes: number = ADAPTER_OLD_SPACE_MB,
): string[] | undefined {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  if (given.some((arg) => NAMES_A_CAP.test(arg))) return undefined;
  return [`--max-old-space-size=${megabytes}`, ...execArgv];
}
