import { NamespacedNatsClient } from '@app/messaging/requests/namespaced-nats';
import { firstValueFrom, timeout } from 'rxjs';
import { testEnv } from './test-env';

/** A client that asks the services of one namespace over core NATS exactly as the gateway does. */
export async function openRequestClient(namespace: string): Promise<{
  request<T>(pattern: string, payload: unknown): Promise<T>;
  close(): Promise<void>;
}> {
  const client = new NamespacedNatsClient({ servers: [testEnv.natsUrl] }, namespace);
  await client.connect();
  return {
    request: <T>(pattern: string, payload: unknown) =>
      firstValueFrom(client.send<T, unknown>(pattern, payload).pipe(timeout(5_000))),
    close: () => client.close(),
  };
}
