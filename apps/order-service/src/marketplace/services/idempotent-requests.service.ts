import { Injectable } from '@nestjs/common';
import { IdempotentRequests as KeyedRequests } from '@app/messaging';
import { IdempotencyKeyRepository } from '../repositories/idempotency-key.repository';

export type { StoreAnswer } from '@app/messaging';

/**
 * The IETF httpapi draft's `Idempotency-Key` on the order service's creating requests, per user
 * (`libs/messaging`'s IdempotentRequests, shared with the vSphere adapter), kept in `marketplace`.
 */
@Injectable()
export class IdempotentRequests extends KeyedRequests {
  constructor(keys: IdempotencyKeyRepository) {
    super(keys);
  }
}
