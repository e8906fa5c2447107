import { readFileSync } from 'node:fs';

/** The nearest-rank percentile `p` (0–100] of samples sorted ascending. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The samples sorted ascending (a copy). */
export function ascending(samples: readonly number[]): number[] {
  return [...samples].sort((a, b) => a - b);
}

/** A process's resident memory in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}
