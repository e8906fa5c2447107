import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { NatsServerProcess } from '../support/nats-server-process';

// The outage and auth tests stand on this: a server of the test's own that keeps its streams
// across a restart on the same port, as the machine's NATS would.
describe("a nats-server of the test's own", () => {
  const server = new NatsServerProcess();

  afterAll(() => server.destroy());

  it('keeps its JetStream streams across a restart on the same port', async () => {
    await server.start();
    const first = await connect({ servers: server.url });
    const jsm = await jetstreamManager(first);
    await jsm.streams.add({ name: 'KEPT', subjects: ['kept.>'] });
    await jetstream(first).publish('kept.one', 'x');
    await first.close();

    const port = server.port;
    await server.stop();
    await expect(connect({ servers: server.url, reconnect: false })).rejects.toThrow();
    await server.start();
    expect(server.port).toBe(port);

    const second = await connect({ servers: server.url });
    const info = await (await jetstreamManager(second)).streams.info('KEPT');
    expect(info.state.messages).toBe(1);
    await second.close();
  });
});
