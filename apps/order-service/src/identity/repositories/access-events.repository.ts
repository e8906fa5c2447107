import { Injectable } from '@nestjs/common';
import { AccessChangedEvent } from '@app/contracts';
import { OutboxWriter, type Transaction } from '@app/messaging';

/**
 * Identity's one event, `AccessChanged` (a user's grants, staff flag or tokens changed: the gateway
 * drops what it cached for them), written through the one outbox writer inside the caller's
 * transaction, and the relay woken after the commit.
 */
@Injectable()
export class AccessEvents {
  constructor(private readonly writer: OutboxWriter) {}

  /** Keyed by the first user: access events carry no order and need no order among themselves. */
  async accessChanged(tx: Transaction, userUuids: readonly string[]): Promise<void> {
    const unique = [...new Set(userUuids)];
    if (unique.length === 0) return;
    await this.writer.append(
      tx,
      this.writer.subjects.accessChanged,
      AccessChangedEvent,
      { user_uuids: unique },
      unique[0],
    );
  }

  /** After the commit: publish now rather than at the next sweep. */
  wake(): void {
    this.writer.wake();
  }
}
