import { ClientNats } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { testEnv } from './test-env';

/** A client that asks the services over core NATS exactly as the gateway does. */
export async function openRequestClient(): Promise<{
  request<T>(pattern: string, payload: unknown): Promise<T>;
  close(): Promise<void>;
}> {
  const client = new ClientNats({ servers: [testEnv.natsUrl] });
  await client.connect();
  return {
    request: <T>(pattern: string, payload: unknown) =>
      firstValueFrom(client.send<T, unknown>(pattern, payload).pipe(timeout(5_000))),
    close: () => client.close(),
  };
}
