import { firstValueFrom, timeout, TimeoutError, type Observable } from 'rxjs';

/** What a Nest client proxy (ClientNats) offers for a request. */
export interface RequestSender {
  send<T>(pattern: string, data: unknown): Observable<T>;
}

/** The answering service was not there (no responder) or did not answer within the deadline. */
export const NO_ANSWER = Symbol('no answer');

/**
 * One core-NATS request from a service to another, with a deadline: the raw answer, or NO_ANSWER
 * when nobody listens or the answer is late (what the caller turns into its 503). Any other
 * failure is a bug of ours and is thrown.
 */
export async function askService(
  client: RequestSender,
  pattern: string,
  payload: object,
  timeoutMs: number,
): Promise<unknown> {
  try {
    return await firstValueFrom(client.send<unknown>(pattern, payload).pipe(timeout(timeoutMs)));
  } catch (error) {
    if (
      error instanceof TimeoutError ||
      (error instanceof Error && /no responders|empty response|timeout/i.test(error.message))
    )
      return NO_ANSWER;
    throw error;
  }
}
