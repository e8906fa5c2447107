import type { ClientNats } from '@nestjs/microservices';
import { END_DATES_SWEEP_PATTERN, type EndDatesSweepView, type RequestReply } from '@app/contracts';
import { firstValueFrom, timeout } from 'rxjs';

/** A sweep of many resources asks vCenter about each: it is given longer than a plain question. */
const TIMEOUT_MS = 60_000;

/** Asks the order service to act on the end dates that are due. */
export class EndDatesSweepClient {
  constructor(private readonly client: ClientNats) {}

  async sweep(): Promise<EndDatesSweepView> {
    const reply = await firstValueFrom(
      this.client
        .send<RequestReply<EndDatesSweepView>>(END_DATES_SWEEP_PATTERN, {})
        .pipe(timeout(TIMEOUT_MS)),
    );
    if (reply.status !== 'ok') throw new Error(`end dates sweep refused: ${reply.detail ?? reply.code}`);
    return reply.data;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
