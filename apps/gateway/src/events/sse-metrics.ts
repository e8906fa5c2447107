import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import type { EndReason } from './subscriber';

/** The SSE series, on the gateway's registry: who is connected, what was sent, who was dropped and why. */
@Injectable()
export class SseMetrics {
  readonly subscribers: Gauge;
  readonly sent: Counter;
  readonly ended: Counter<'reason'>;
  /** Streams refused because their user held SSE_MAX_STREAMS_PER_USER already. */
  readonly overCap: Counter;
  private peakQueued = 0;
  private sentCount = 0;

  constructor(metrics: GatewayMetrics) {
    const registers = [metrics.registry];
    this.subscribers = new Gauge({ name: 'sse_subscribers', help: 'Open SSE streams', registers });
    // Counted in a plain number on the hot path (one write per subscriber per event), read at scrape.
    const sent = () => this.sentCount;
    this.sent = new Counter({
      name: 'sse_events_sent_total',
      help: 'Feed events written to SSE subscribers',
      registers,
      collect() {
        this.reset();
        this.inc(sent());
      },
    });
    this.ended = new Counter({
      name: 'sse_streams_ended_total',
      help: 'SSE streams ended, by reason (overflow: a slow client dropped with a final event)',
      labelNames: ['reason'],
      registers,
    });
    this.overCap = new Counter({
      name: 'sse_streams_refused_total',
      help: 'SSE streams refused with 429: their user held SSE_MAX_STREAMS_PER_USER on this gateway already',
      registers,
    });
    const peak = () => this.peakQueued;
    new Gauge({
      name: 'sse_queue_peak_bytes',
      help: 'The most bytes any one SSE client has had waiting since the gateway started (bounded by SSE_QUEUE_LIMIT_BYTES plus one event)',
      registers,
      collect() {
        this.set(peak());
      },
    });
  }

  eventSent(queuedBytes: number): void {
    this.sentCount += 1;
    if (queuedBytes > this.peakQueued) this.peakQueued = queuedBytes;
  }

  endedFor(reason: EndReason): void {
    this.ended.inc({ reason });
  }
}
