/**
 * `--quick`: every bench at small sizes, a few seconds each, so CI runs each one (`npm run
 * bench:quick`) and none rots unseen. The figures of a quick run are not the bench's figures.
 */
export const QUICK = process.argv.includes('--quick');

/** `full` in a real run, `quick` with `--quick`. */
export function size(full: number, quick: number): number {
  return QUICK ? quick : full;
}
