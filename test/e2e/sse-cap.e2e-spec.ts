import { ApiSystem } from '../support/api-system';
import { SseClient } from '../support/sse-client';
import { eventually } from '../support/virtual-machines';

jest.setTimeout(60_000);

/** SSE_MAX_STREAMS_PER_USER: one user's streams are capped per gateway; others are not affected. */
describe('SSE: a cap on the streams one user holds open (SSE_MAX_STREAMS_PER_USER)', () => {
  let system: ApiSystem;
  const open: SseClient[] = [];

  const stream = async (token: string) => {
    const client = await SseClient.open(`${system.base}/api/events`, { token });
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    system = await ApiSystem.start('sse-cap', { gatewayEnv: { SSE_MAX_STREAMS_PER_USER: '3' } });
  });

  afterAll(async () => {
    for (const client of open) client.close();
    await system?.stop();
  });

  it('answers the stream past the cap 429 naming the cap; closing one frees its slot; other users are not counted', async () => {
    const user = await system.ok(system.staffToken, 'POST', '/api/users/', { username: 'streamer' });
    const token = await system.createToken(user.uuid as string);
    const held = [await stream(token), await stream(token), await stream(token)];
    for (const client of held) expect(client.status).toBe(200);
    const refused = await stream(token);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      detail: 'Too many open event streams: at most 3 per user. Close one to open another.',
    });
    // Another user (staff here) has slots of their own.
    expect((await stream(system.staffToken)).status).toBe(200);
    held[0].close();
    // The gateway frees the slot when it sees the connection close.
    const again = await eventually(
      () => stream(token),
      (client) => client.status === 200,
      10_000,
      'a slot freed by the closed stream',
    );
    expect(again.status).toBe(200);
  });
});
