import { Inject, Injectable } from '@nestjs/common';
import type { OfferingState } from '@app/contracts';
import { DataSource } from 'typeorm';
import type { OfferingFacts } from '../domain/offering-visibility';

/** The offerings' states as OfferingChanged reports them, and what the inventory lists need of them. */
@Injectable()
export class OfferingStateRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Records an offering's state unless a later event already did: a natural-key upsert, so a
   * redelivery (or an older event delivered late) changes nothing.
   */
  async record(offering: {
    offeringUuid: string;
    customerUuid: string;
    state: OfferingState;
    changedAt: Date;
  }): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO vsphere.offering_states AS s (offering_uuid, customer_uuid, state, changed_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (offering_uuid) DO UPDATE
         SET customer_uuid = EXCLUDED.customer_uuid, state = EXCLUDED.state, changed_at = EXCLUDED.changed_at
         WHERE s.changed_at <= EXCLUDED.changed_at`,
      [offering.offeringUuid, offering.customerUuid, offering.state, offering.changedAt],
    );
  }

  /**
   * Every offering with an integration (the only ones with inventory), with its state and provider:
   * the state from OfferingChanged (null before one arrived), the provider from OfferingChanged or
   * else from the integration. One row per VMware offering: a small table.
   */
  async integrated(offeringUuid?: string): Promise<OfferingFacts[]> {
    const rows = await this.dataSource.query<
      { offering_uuid: string; customer_uuid: string | null; state: OfferingState | null }[]
    >(
      `SELECT i.offering_uuid, COALESCE(s.customer_uuid, i.customer_uuid) AS customer_uuid, s.state
       FROM vsphere.integrations i LEFT JOIN vsphere.offering_states s ON s.offering_uuid = i.offering_uuid
       WHERE $1::uuid IS NULL OR i.offering_uuid = $1::uuid`,
      [offeringUuid ?? null],
    );
    return rows.map((row) => ({
      offeringUuid: row.offering_uuid,
      customerUuid: row.customer_uuid,
      state: row.state,
    }));
  }
}
