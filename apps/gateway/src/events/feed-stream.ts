import {
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { FeedStreamNames } from '@app/contracts';
import { isJetStreamUnavailable } from '@app/messaging/jetstream/until-jetstream-answers';

const STREAM_NOT_FOUND = 10059;

/** The feed stream's configuration: no subjects of its own, only the services' feed subjects as sources. */
export function feedStreamConfig(
  feed: FeedStreamNames,
  maxAgeMs: number,
  replicas: number,
): Partial<StreamConfig> & { name: string } {
  return {
    name: feed.name,
    subjects: [],
    sources: feed.sources.map((source) => ({ name: source.stream, filter_subject: source.filter })),
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(maxAgeMs),
    // The server refuses a duplicate window longer than the history (short histories in tests).
    duplicate_window: nanos(Math.min(2 * 60_000, maxAgeMs)),
    num_replicas: replicas,
  };
}

/** Whether the stream as it stands differs from the wanted configuration in what the gateway sets. */
export function feedStreamDiffers(current: Partial<StreamConfig>, wanted: Partial<StreamConfig>): boolean {
  const sources = (config: Partial<StreamConfig>) =>
    (config.sources ?? [])
      .map((s) => `${s.name}|${s.filter_subject ?? ''}`)
      .sort()
      .join();
  return (
    current.max_age !== wanted.max_age ||
    current.num_replicas !== wanted.num_replicas ||
    sources(current) !== sources(wanted)
  );
}

/**
 * Creates the feed stream, or brings it to the configured history, sources and replicas (a clustered
 * server adds or drops copies on the update, keeping the messages); safe at every start
 * and from several gateways at once. A source stream that does not exist yet (its service has not
 * started) is picked up by the server once it does.
 */
export async function ensureFeedStream(
  jsm: JetStreamManager,
  feed: FeedStreamNames,
  maxAgeMs: number,
  replicas: number,
): Promise<'created' | 'updated' | 'unchanged'> {
  const config = feedStreamConfig(feed, maxAgeMs, replicas);
  try {
    const info = await jsm.streams.info(feed.name);
    if (!feedStreamDiffers(info.config, config)) return 'unchanged';
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === STREAM_NOT_FOUND)) throw error;
    try {
      await jsm.streams.add(config);
      return 'created';
    } catch (raceError) {
      // Another gateway created it between the two calls: bring it to this configuration. A
      // refusal as unavailable is not that race: it goes to the caller, who asks again.
      if (!(raceError instanceof JetStreamApiError) || isJetStreamUnavailable(raceError)) throw raceError;
    }
  }
  await jsm.streams.update(feed.name, config);
  return 'updated';
}
