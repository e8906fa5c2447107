/**
 * The ports a test process may hand out: 20000-32767, below Linux's default ephemeral range
 * (32768-60999, `net.ipv4.ip_local_port_range`), so no bind to port 0 is ever given one. Ten slices
 * for jest workers (a 2-core machine runs two; past ten, worker N shares the slice of worker N-10,
 * and the bind check still keeps them apart but for a race), two for processes outside jest
 * (benches, scripts), chosen by pid.
 */
export const PORT_RANGE = { first: 20_000, last: 32_767 } as const;
const SLICE_SIZE = 1_000;
const WORKER_SLICES = 10;

export interface PortSlice {
  first: number;
  size: number;
}

/** The slice of jest worker `workerId` (jest numbers them from 1), or of a process outside jest. Pure. */
export function portSlice(workerId: string | undefined, pid: number): PortSlice {
  const worker = Number(workerId);
  const index =
    Number.isInteger(worker) && worker >= 1 ? (worker - 1) % WORKER_SLICES : WORKER_SLICES + (pid % 2);
  return { first: PORT_RANGE.first + index * SLICE_SIZE, size: SLICE_SIZE };
}
