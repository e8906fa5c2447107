import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamManager,
  type StreamConfig,
  type StreamInfo,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { ConsumerPolicy } from './consumer-policy';
import { isJetStreamUnavailable } from './until-jetstream-answers';

export interface StreamSpec {
  name: string;
  subjects: string[];
  /** History kept for SSE resume and replays. */
  maxAgeMs: number;
  /** Copies of the stream on a cluster (NATS_STREAM_REPLICAS); 1 on a single server. */
  replicas: number;
}

/** How long a start waits for a stream's new copies before it goes on to its durables. */
const REPLICA_SETTLE_MS = 30_000;

// JetStream error codes, stable across server versions.
const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;

function isApiError(error: unknown, code: number): boolean {
  return error instanceof JetStreamApiError && error.code === code;
}

/**
 * Creates the stream, or brings an existing one to this configuration. Safe to run at every start.
 * A consumer of another service's stream passes `createOnly`: it may create the stream so that it
 * can start first, but the owner's configuration wins.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  spec: StreamSpec,
  mode: 'own' | 'createOnly' = 'own',
): Promise<void> {
  const config = {
    name: spec.name,
    subjects: spec.subjects,
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(spec.maxAgeMs),
    duplicate_window: nanos(2 * 60_000),
    // An update with another count makes a clustered server add or drop copies, keeping the messages.
    num_replicas: spec.replicas,
  };
  let current: StreamInfo;
  try {
    current = await jsm.streams.info(spec.name);
  } catch (error) {
    if (!isApiError(error, STREAM_NOT_FOUND)) throw error;
    try {
      await jsm.streams.add(config);
      return;
    } catch (raceError) {
      // Another instance created it between our two calls: fall through to the update. A refusal
      // as unavailable is not that race: it goes to the caller, who asks again.
      if (!(raceError instanceof JetStreamApiError) || isJetStreamUnavailable(raceError)) throw raceError;
      current = await jsm.streams.info(spec.name);
    }
  }
  if (mode === 'createOnly' || streamMatches(current.config, config)) return;
  await jsm.streams.update(spec.name, config);
  if (current.config.num_replicas !== spec.replicas) await untilCopiesPlaced(jsm, spec);
}

function streamMatches(current: StreamConfig, wanted: Partial<StreamConfig>): boolean {
  return (
    current.num_replicas === wanted.num_replicas &&
    current.max_age === wanted.max_age &&
    current.duplicate_window === wanted.duplicate_window &&
    current.retention === wanted.retention &&
    current.storage === wanted.storage &&
    [...current.subjects].sort().join(' ') === [...(wanted.subjects ?? [])].sort().join(' ')
  );
}

/**
 * Waits, within bounds, until the stream reports the new number of copies. The server answers a
 * replica change before its meta group has applied it; a durable updated in that window is
 * assigned from the stale record and keeps its old copies for good (nats-server 2.9's consumer
 * update copies the group it finds), so the durables of this start must wait for the stream.
 */
async function untilCopiesPlaced(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  const deadline = Date.now() + REPLICA_SETTLE_MS;
  while (Date.now() < deadline) {
    const info = await jsm.streams.info(spec.name).catch(() => undefined);
    if ((info?.cluster?.replicas?.length ?? 0) === spec.replicas - 1) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface DurableSpec {
  stream: string;
  durable: string;
  filter: string;
}

/**
 * Creates the durable pull consumer, or updates its redelivery settings. Safe to run at every start.
 * A durable has as many copies as its stream (`num_replicas: 0`), and follows the stream when the
 * stream's owner changes its replicas: an explicit count would be refused by the server (10126)
 * whenever it exceeds the stream's, which happens when the consuming and the owning services are
 * configured differently for a while, as during a rolling change of NATS_STREAM_REPLICAS.
 */
export async function ensureDurableConsumer(
  jsm: JetStreamManager,
  spec: DurableSpec,
  policy: ConsumerPolicy,
): Promise<void> {
  const settings = {
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(policy.ackWaitMs),
    // Unlimited: a transient failure is retried for as long as it lasts (the runner's capped nak
    // delays pace it); only a malformed payload or an explicit refusal is terminated.
    max_deliver: -1,
    max_ack_pending: Math.max(policy.concurrency * 4, 64),
    // Also brings a durable created with an explicit count back to following its stream.
    num_replicas: 0,
  };
  try {
    const current = await jsm.consumers.info(spec.stream, spec.durable);
    // An update that changes nothing is not sent: sent while the stream's copies are being changed
    // by its owner (another process, in a rolling change), it would undo the durable's new copies.
    if (durableMatches(current.config, settings)) return;
  } catch (error) {
    if (!isApiError(error, CONSUMER_NOT_FOUND)) throw error;
    try {
      await jsm.consumers.add(spec.stream, {
        ...settings,
        durable_name: spec.durable,
        filter_subject: spec.filter,
        deliver_policy: DeliverPolicy.All,
      });
      return;
    } catch (raceError) {
      if (!(raceError instanceof JetStreamApiError) || isJetStreamUnavailable(raceError)) throw raceError;
    }
  }
  await jsm.consumers.update(spec.stream, spec.durable, settings);
}

function durableMatches(current: ConsumerConfig, wanted: Partial<ConsumerConfig>): boolean {
  return (
    current.ack_policy === wanted.ack_policy &&
    current.ack_wait === wanted.ack_wait &&
    current.max_deliver === wanted.max_deliver &&
    current.max_ack_pending === wanted.max_ack_pending &&
    (current.num_replicas ?? 0) === wanted.num_replicas
  );
}
