import type { ClientNats } from '@nestjs/microservices';
import { SYNC_TARGETS_PATTERN, type RequestReply, type SyncTargetsView } from '@app/contracts';
import { firstValueFrom, timeout } from 'rxjs';

const TIMEOUT_MS = 5_000;

/** Asks the order service which offerings to keep synchronised. */
export class SyncTargetsClient {
  constructor(private readonly client: ClientNats) {}

  async offeringUuids(): Promise<string[]> {
    const reply = await firstValueFrom(
      this.client.send<RequestReply<SyncTargetsView>>(SYNC_TARGETS_PATTERN, {}).pipe(timeout(TIMEOUT_MS)),
    );
    if (reply.status !== 'ok') throw new Error(`sync targets refused: ${reply.detail ?? reply.code}`);
    return reply.data.offering_uuids;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
