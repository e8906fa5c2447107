import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** CPU seconds all Postgres backends of one database have used: summed over their pids. */
export function totalCpuSeconds(pids: number[]): number {
  let total = 0;
  for (const pid of pids) {
    try {
      total += cpuSeconds(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}
