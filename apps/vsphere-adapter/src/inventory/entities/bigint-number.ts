import type { ValueTransformer } from 'typeorm';

/** Postgres bigint ↔ JS number (the driver reads bigint as a string; sizes in MB/MiB fit 2^53). */
export const bigintNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
