import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { topology, type Topology } from '@app/contracts';
import { testEnv, uniqueToken } from './test-env';

export interface TestNats {
  nc: NatsConnection;
  jsm: JetStreamManager;
  topology: Topology;
  /** Deletes the suite's streams and closes the connection. */
  close(): Promise<void>;
}

/**
 * A NATS connection and a namespace of the suite's own: its streams and subjects collide with no
 * other suite. On the machine's NATS unless `servers` names others (a cluster's nodes).
 */
export async function createTestNats(
  label: string,
  servers: string[] = [testEnv.natsUrl],
): Promise<TestNats> {
  const nc = await connect({ servers, name: `test-${label}` });
  const jsm = await jetstreamManager(nc);
  const names = topology(uniqueToken(`t${label.replace(/[^a-z0-9]/g, '')}-`).slice(0, 40));
  return {
    nc,
    jsm,
    topology: names,
    close: async () => {
      for (const stream of [...Object.values(names.streams), names.feed])
        await jsm.streams.delete(stream.name).catch(() => false);
      await nc.close();
    },
  };
}
