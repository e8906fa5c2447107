import { API_PATHS } from '@app/contracts/http/api-paths';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One event of `GET /api/events`: its feed sequence, its type and the object as REST shows it. */
export interface FeedEvent {
  id: number | undefined;
  type: string;
  data: unknown;
}

export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'closed';

interface StreamOptions {
  token: string;
  onEvent: (event: FeedEvent) => void;
  onStatus: (status: StreamStatus) => void;
  /** The stream answered 401: the token is no longer valid. */
  onUnauthorized: () => void;
}

/** How long to wait before reconnecting when the server did not say (`retry:`). */
const DEFAULT_RETRY_MS = 2_000;
const MAX_RETRY_MS = 30_000;

/**
 * `GET /api/events` read with fetch: the gateway takes the token in the `Authorization` header only,
 * which an EventSource cannot send. It keeps the last `id:` and reconnects with `Last-Event-ID`
 * after any drop, so nothing is missed and nothing is polled. Answers a function that closes it.
 */
export function openEventStream(options: StreamOptions): () => void {
  const abort = new AbortController();
  let lastEventId: string | undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;

  const connect = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      options.onStatus(failures === 0 && lastEventId === undefined ? 'connecting' : 'reconnecting');
      try {
        const response = await fetch(API_PATHS.events, {
          headers: {
            Authorization: `Token ${options.token}`,
            Accept: 'text/event-stream',
            ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }),
          },
          cache: 'no-store',
          signal: abort.signal,
        });
        if (response.status === 401) {
          options.onStatus('closed');
          options.onUnauthorized();
          return;
        }
        if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
        options.onStatus('live');
        failures = 0;
        const parser = createParser({
          onEvent: (message: EventSourceMessage) => {
            if (message.id !== undefined) lastEventId = message.id;
            options.onEvent(toFeedEvent(message));
          },
          onRetry: (ms) => (retryMs = ms),
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        // A refused connection or a dropped stream: both end in the reconnect below.
        if (abort.signal.aborted) return;
        failures += 1;
      }
      if (abort.signal.aborted) return;
      options.onStatus('reconnecting');
      // Backs off on repeated failures so a gateway that is down is not hammered.
      await sleep(Math.min(retryMs * 2 ** Math.max(0, failures - 1), MAX_RETRY_MS), abort.signal);
    }
  };
  void connect();
  return () => {
    abort.abort();
    options.onStatus('closed');
  };
}

function toFeedEvent(message: EventSourceMessage): FeedEvent {
  let data: unknown = message.data;
  try {
    data = JSON.parse(message.data);
  } catch {
    // A non-JSON data line is passed on as text.
  }
  const id = message.id === undefined ? undefined : Number(message.id);
  return { id: Number.isFinite(id) ? id : undefined, type: message.event ?? 'message', data };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
