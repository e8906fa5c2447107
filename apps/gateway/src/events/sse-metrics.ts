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

  constructor(metrics: GatewayMetrics) {
    const registers = [metrics.registry];
    this.subscribers = new Gauge({ name: 'sse_subscribers', help: 'Open SSE streams', registers });
    this.sent = new Counter({
      name: 'sse_events_sent_total',
      help: 'Feed events written to SSE subscribers',
      registers,
    });
    this.ended = new Counter({
      name: 'sse_streams_ended_total',
      help: 'SSE streams ended, by reason (overflow: a slow client dropped with a final event)',
      labelNames: ['reason'],
      registers,
    });
  }

  endedFor(reason: EndReason): void {
    this.ended.inc({ reason });
  }
}
