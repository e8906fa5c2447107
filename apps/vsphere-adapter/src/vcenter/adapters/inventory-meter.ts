import type { InventoryKind } from '@app/contracts';

/**
 * Where the inventory reader reports each vCenter request (the sync bench counts them): the kind
 * it was for, the API, the operation, and the seconds spent waiting for the answer (`wireSeconds`)
 * and turning it into objects (`decodeSeconds`, REST only: SOAP decoding is the reader's time minus
 * the wire time, reported per kind by `readDone`).
 */
export interface InventoryMeter {
  request(
    kind: InventoryKind,
    api: 'soap' | 'rest',
    operation: string,
    wireSeconds: number,
    decodeSeconds: number,
  ): void;
  /** One kind fully read in `seconds` (wall time, requests included). */
  readDone(kind: InventoryKind, seconds: number): void;
}

export const INVENTORY_METER = Symbol('InventoryMeter');

export const seconds = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;
