import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ApiClient, Query } from '../http/api-client';
import { describeNetworkError } from '../http/api-client';
import type { DebugLog } from '../http/debug-log';
import type { RequestOutcome } from '../http/retry-policy';

/** One SSE message: `id:` (the stream sequence), `event:` (its type) and `data:`. */
export interface StreamMessage {
  id?: string;
  event: string;
  data: string;
}

/** The stream could not be opened (no SSE route, refused, unreachable): the waiter polls instead. */
export class StreamUnavailable extends Error {
  constructor(
    message: string,
    /** What happened, for the retry rules: a connection error or a 5xx is worth another try. */
    readonly outcome: RequestOutcome,
  ) {
    super(message);
  }
}

/**
 * The gateway's Server-Sent Events over fetch, parsed by eventsource-parser. `Last-Event-ID` resumes
 * after a dropped connection: the gateway replays what was missed, in order, once.
 */
export class EventStream {
  private constructor(
    private readonly response: Response,
    private readonly log: DebugLog,
  ) {}

  /** Resolves once the gateway answered 200 with `text/event-stream`: from then on nothing is missed. */
  static async open(
    client: ApiClient,
    path: string,
    query: Query,
    options: { lastEventId?: string; signal: AbortSignal; log: DebugLog },
  ): Promise<EventStream> {
    const url = client.url(path, query);
    const headers = client.headers({ Accept: 'text/event-stream' });
    if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId;
    client.requests++;
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: options.signal });
    } catch (error) {
      throw new StreamUnavailable(`GET ${url} failed (${describeNetworkError(error as Error)})`, {
        kind: 'network-error',
      });
    }
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== 200 || !type.startsWith('text/event-stream')) {
      await response.body?.cancel();
      throw new StreamUnavailable(`GET ${url} answered ${response.status} ${type}`, {
        kind: 'response',
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
      });
    }
    options.log.write(
      `GET ${url} → 200 event stream${options.lastEventId ? ` (resuming after ${options.lastEventId})` : ''}`,
    );
    return new EventStream(response, options.log);
  }

  /** The messages as they arrive; ends when the server closes the stream (or it drops). */
  async *messages(): AsyncGenerator<StreamMessage> {
    const queue: StreamMessage[] = [];
    const parser = createParser({
      onEvent: (message: EventSourceMessage) =>
        queue.push({ id: message.id, event: message.event ?? 'message', data: message.data }),
    });
    const decoder = new TextDecoder();
    const reader: ReadableStreamDefaultReader<Uint8Array> = this.response.body!.getReader();
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) break;
        parser.feed(decoder.decode(chunk.value, { stream: true }));
        while (queue.length > 0) yield queue.shift()!;
      }
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      this.log.write(`event stream dropped: ${describeNetworkError(error as Error)}`);
    } finally {
      reader.releaseLock();
    }
  }

  close(): void {
    void this.response.body?.cancel().catch(() => undefined);
  }
}
