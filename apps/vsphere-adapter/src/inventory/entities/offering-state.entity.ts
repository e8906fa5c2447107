import type { OfferingState } from '@app/contracts';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An offering's state and provider as the last OfferingChanged told them (the order service owns both). */
@Entity({ name: 'offering_states' })
export class OfferingStateEntity {
  @PrimaryColumn({ name: 'offering_uuid', type: 'uuid' })
  offeringUuid!: string;

  @Column({ name: 'customer_uuid', type: 'uuid' })
  customerUuid!: string;

  @Column({ type: 'varchar', length: 16 })
  state!: OfferingState;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;
}
