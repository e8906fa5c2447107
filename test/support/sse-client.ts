import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseMessage {
  id?: string;
  event: string;
  data: string;
}

/**
 * One Server-Sent Events connection, parsed by eventsource-parser: every message kept in order with
 * its id, event and data, and the comment lines counted (the heartbeats).
 */
export class SseClient {
  readonly messages: SseMessage[] = [];
  comments = 0;
  ended = false;
  /** Everything received, as text (an error answer's JSON body, for one). */
  raw = '';
  private constructor(
    private readonly request: ClientRequest,
    readonly response: IncomingMessage,
  ) {}

  get status(): number {
    return this.response.statusCode ?? 0;
  }

  /** Opens the stream; resolves once the answer's head has arrived (whatever its status). */
  static open(
    url: string,
    options: { token?: string; lastEventId?: string | number; headers?: Record<string, string> } = {},
  ): Promise<SseClient> {
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...options.headers };
    if (options.token) headers.Authorization = `Token ${options.token}`;
    if (options.lastEventId !== undefined) headers['Last-Event-ID'] = String(options.lastEventId);
    return new Promise((resolve, reject) => {
      const request = httpRequest(url, { headers, agent: false }, (response) => {
        const client = new SseClient(request, response);
        const parser = createParser({
          onEvent: (message: EventSourceMessage) =>
            client.messages.push({ id: message.id, event: message.event ?? 'message', data: message.data }),
          onComment: () => client.comments++,
        });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          // Kept for an error answer's body; a long stream's text is not needed.
          if (client.raw.length < 65_536) client.raw += chunk;
          parser.feed(chunk);
        });
        response.on('end', () => (client.ended = true));
        response.on('close', () => (client.ended = true));
        response.on('error', () => (client.ended = true));
        resolve(client);
      });
      request.on('error', reject);
      request.end();
    });
  }

  /** The messages of one event type (or every one but the given control events). */
  events(type?: string): SseMessage[] {
    return type ? this.messages.filter((message) => message.event === type) : this.messages;
  }

  /** The parsed `data` of every message (of `type`, if given). */
  data<T = Record<string, unknown>>(type?: string): T[] {
    return this.events(type).map((message) => JSON.parse(message.data) as T);
  }

  async waitFor(
    predicate: (client: SseClient) => boolean,
    timeoutMs = 5_000,
    what = 'condition',
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this)) {
      if (Date.now() > deadline)
        throw new Error(
          `SSE: ${what} not met in ${timeoutMs} ms; got ${this.messages.length} messages, the last ones: ` +
            JSON.stringify(this.messages.slice(-3)).slice(0, 2_000),
        );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async waitForCount(count: number, timeoutMs = 5_000): Promise<void> {
    await this.waitFor((client) => client.messages.length >= count, timeoutMs, `${count} messages`);
  }

  /** The whole body of a non-streaming answer (an error), as JSON. */
  async json(): Promise<unknown> {
    await this.waitFor((client) => client.ended, 5_000, 'end of the answer');
    return JSON.parse(this.raw);
  }

  close(): void {
    this.request.destroy();
    this.ended = true;
  }
}
