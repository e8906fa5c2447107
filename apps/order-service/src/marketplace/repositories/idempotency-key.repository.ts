import { Inject, Injectable } from '@nestjs/common';
import { IdempotencyKeyRepository as SchemaIdempotencyKeys } from '@app/messaging';
import { DataSource } from 'typeorm';

/** The `Idempotency-Key`s of the creating POSTs, per user (`marketplace.idempotency_keys`). */
@Injectable()
export class IdempotencyKeyRepository extends SchemaIdempotencyKeys {
  constructor(@Inject(DataSource) dataSource: DataSource) {
    super(dataSource, 'marketplace');
  }
}
