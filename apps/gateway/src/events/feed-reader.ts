import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { topology, type FeedStreamNames } from '@app/contracts';
import { untilJetStreamAnswers } from '@app/messaging/jetstream/until-jetstream-answers';
import { natsConnectionOptions } from '@app/messaging/nats/nats-options';
import { CONFIG, type GatewayConfig } from '../config/gateway.config';
import { decodeFeedEvent, type FeedEvent } from './feed-event';
import { ensureFeedStream } from './feed-stream';

/** A replay that sees no message for this long has reached the end (what it waited for expired). */
const REPLAY_IDLE_MS = 3_000;
/** The pause before following on after a failure (JetStream refused, or did not answer in API_TIMEOUT_MS). */
const RESTART_DELAY_MS = 250;
/** The pause before following on after the reader closed its own consumer (heartbeats, reconnect). */
const FOLLOW_ON_DELAY_MS = 50;
/**
 * How long one pull of the live reader waits; the server sends a heartbeat every half of it, so
 * the loss of the live consumer's node shows within two of them (see restartOnMissedHeartbeats):
 * 2 to 3 s here, where 4 s pulls took 4 to 6 s, all of it a stall of every SSE client.
 */
const LIVE_PULL_EXPIRES_MS = 2_000;
/**
 * How long the reader waits for a JetStream API answer (stream info, consumer create). While a
 * node is down a create can go unanswered: nats-server 2.9 places an ordered (R1) consumer on a
 * random peer of the stream, the dead one too, and no one answers until the meta leader is
 * re-elected when it was that node. The library's 5 s (and a 1 s pause) made each such try cost
 * 6 s of stall for every SSE client; an answer normally takes milliseconds.
 */
const API_TIMEOUT_MS = 2_000;

/** Where the feed's history starts and ends now. */
export interface FeedBounds {
  /** The oldest sequence still held; `last + 1` when the stream holds nothing. */
  readonly firstAvailable: number;
  readonly last: number;
}

/**
 * The gateway's one reader of the feed stream: it ensures the stream at start, follows it from its
 * current end with one ordered consumer (which recovers by itself from gaps and reconnects) and
 * hands every event to the fan-out; resumes replay their gap with a short-lived ordered consumer.
 */
@Injectable()
export class FeedReader implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(FeedReader.name);
  private readonly feed: FeedStreamNames;
  private nc?: NatsConnection;
  private js?: JetStreamClient;
  private jsm?: JetStreamManager;
  private live?: ConsumerMessages;
  private stopped = false;
  private lastLiveSeq = 0;
  private listener: (event: FeedEvent) => void = () => undefined;

  constructor(@Inject(CONFIG) private readonly config: GatewayConfig) {
    this.feed = topology(config.NATS_NAMESPACE).feed;
  }

  /** The last sequence handed to the fan-out. */
  get position(): number {
    return this.lastLiveSeq;
  }

  /** The fan-out: called once per feed event, in sequence order. */
  onEvent(listener: (event: FeedEvent) => void): void {
    this.listener = listener;
  }

  async onModuleInit(): Promise<void> {
    this.nc = await connect(natsConnectionOptions(this.config, 'gateway', 'gateway-feed'));
    this.js = jetstream(this.nc, { timeout: API_TIMEOUT_MS });
    const hours = this.config.SSE_HISTORY_HOURS;
    const { outcome, bounds } = await untilJetStreamAnswers(
      async () => {
        this.jsm = await jetstreamManager(this.nc!);
        const replicas = this.config.NATS_STREAM_REPLICAS;
        const ensured = await ensureFeedStream(this.jsm, this.feed, hours * 3_600_000, replicas);
        return { outcome: ensured, bounds: await this.bounds() };
      },
      (reason, delayMs) =>
        this.logger.warn(
          `waiting for JetStream to set up the feed stream (${reason}); again in ${delayMs} ms`,
        ),
    );
    if (hours < 24)
      this.logger.warn(`SSE_HISTORY_HOURS is ${hours}: clients may resume less than a day back`);
    this.lastLiveSeq = bounds.last;
    this.logger.log(`feed stream ${this.feed.name} ${outcome}; live from sequence ${this.lastLiveSeq + 1}`);
    void this.followLive();
    void this.restartOnReconnect(this.nc);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.live?.close().catch(() => undefined);
    await this.nc?.close().catch(() => undefined);
  }

  async bounds(): Promise<FeedBounds> {
    const { state } = await this.jsm!.streams.info(this.feed.name);
    return {
      firstAvailable: state.messages > 0 ? state.first_seq : state.last_seq + 1,
      last: state.last_seq,
    };
  }

  /**
   * Feeds `each` the events from `from` to `to` (both included, those still held), in order, until
   * it answers false. Awaits `each`, so a slow client slows its own replay and nothing piles up.
   */
  async replay(from: number, to: number, each: (event: FeedEvent) => Promise<boolean>): Promise<void> {
    if (from > to) return;
    const consumer = await this.js!.consumers.get(this.feed.name, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: from,
    });
    const messages = await consumer.consume({ max_messages: 256 });
    let idle = setTimeout(() => void messages.close(), REPLAY_IDLE_MS);
    try {
      for await (const message of messages) {
        clearTimeout(idle);
        if (message.seq > to) break;
        const go = await each(decodeFeedEvent(message.seq, message.data));
        if (!go || message.seq >= to || message.info.pending === 0) break;
        idle = setTimeout(() => void messages.close(), REPLAY_IDLE_MS);
      }
    } finally {
      clearTimeout(idle);
      await messages.close().catch(() => undefined);
    }
  }

  private async followLive(): Promise<void> {
    let delayMs = RESTART_DELAY_MS;
    while (!this.stopped) {
      try {
        const consumer = await this.js!.consumers.get(this.feed.name, {
          deliver_policy: DeliverPolicy.StartSequence,
          opt_start_seq: this.lastLiveSeq + 1,
        });
        const live = await consumer.consume({ max_messages: 1_024, expires: LIVE_PULL_EXPIRES_MS });
        this.live = live;
        void this.restartOnMissedHeartbeats(live);
        for await (const message of live) {
          this.lastLiveSeq = message.seq;
          this.listener(decodeFeedEvent(message.seq, message.data));
        }
        delayMs = FOLLOW_ON_DELAY_MS;
      } catch (error) {
        if (this.stopped) return;
        this.logger.warn(`live feed reader stopped (${String(error)}); restarting after ${this.lastLiveSeq}`);
        delayMs = RESTART_DELAY_MS;
      }
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }

  /**
   * The live ordered consumer lives on one node. When that node dies the library keeps asking for
   * the lost consumer, every `expires` and for as long as the node stays away: the feed stalls. So
   * the reader closes it on two missed heartbeats (its node died under a connection to another node)
   * or on a reconnect (its node may have been the connection's); the loop follows on with a new
   * consumer from the last sequence handed on, so nothing is skipped or repeated.
   */
  private async restartOnMissedHeartbeats(live: ConsumerMessages): Promise<void> {
    for await (const status of live.status()) {
      if (status.type !== 'heartbeats_missed') continue;
      this.logger.warn(`live feed reader missed heartbeats; following on after ${this.lastLiveSeq}`);
      await live.close().catch(() => undefined);
      return;
    }
  }

  private async restartOnReconnect(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type !== 'reconnect') continue;
      this.logger.warn(`NATS reconnected; the live feed reader follows on after ${this.lastLiveSeq}`);
      await this.live?.close().catch(() => undefined);
    }
  }
}
