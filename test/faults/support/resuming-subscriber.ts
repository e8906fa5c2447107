import { SseClient, type SseMessage } from '../../support/sse-client';
import { sleep } from './wait';

/** One message as a resuming subscriber got it: which gateway sent it and when it arrived. */
export interface ReceivedMessage extends SseMessage {
  gateway: string;
  receivedAt: number;
}

/**
 * A `GET /api/events` subscriber that behaves as an EventSource does across gateways: when its
 * connection ends (its gateway was killed) it reconnects, to the next gateway of the list first, with
 * `Last-Event-ID` set to the last id it received, and keeps every message of every connection in
 * the order they came.
 */
export class ResumingSubscriber {
  readonly messages: ReceivedMessage[] = [];
  /** Every connection it opened: the gateway and the Last-Event-ID it sent. */
  readonly connections: { gateway: string; lastEventId?: string; at: number }[] = [];
  private current?: SseClient;
  private copied = 0;
  private stopped = false;
  private loop?: Promise<void>;

  constructor(
    private readonly gateways: readonly string[],
    private readonly first: number,
    private readonly token: string,
  ) {}

  get lastEventId(): string | undefined {
    return this.messages.findLast((message) => message.id !== undefined)?.id;
  }

  async start(): Promise<void> {
    await this.connect(this.first);
    this.loop = this.follow();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
    this.current?.close();
  }

  private async follow(): Promise<void> {
    let gateway = this.first;
    while (!this.stopped) {
      this.copy();
      if (this.current?.ended) {
        gateway = (gateway + 1) % this.gateways.length;
        await this.connect(gateway).catch(() => sleep(100));
      }
      await sleep(10);
    }
    this.copy();
  }

  private copy(): void {
    const client = this.current;
    if (!client) return;
    const gateway = this.connections[this.connections.length - 1].gateway;
    for (; this.copied < client.messages.length; this.copied++)
      this.messages.push({ ...client.messages[this.copied], gateway, receivedAt: Date.now() });
  }

  private async connect(index: number): Promise<void> {
    const gateway = this.gateways[index];
    const lastEventId = this.lastEventId;
    const client = await SseClient.open(`${gateway}/api/events`, { token: this.token, lastEventId });
    if (client.status !== 200) {
      client.close();
      throw new Error(`${gateway} answered ${client.status}`);
    }
    this.current = client;
    this.copied = 0;
    this.connections.push({ gateway, lastEventId, at: Date.now() });
  }
}
