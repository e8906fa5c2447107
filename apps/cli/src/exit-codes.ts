/**
 * What `waldur-cli` exits with: documented in `--help` and the README, relied on by scripts.
 * Usage errors are found before any request is sent.
 */
export const EXIT = {
  ok: 0,
  /** A bug or an unexpected failure. */
  failure: 1,
  /** Bad input: an unknown flag, malformed JSON or YAML, a bad JMESPath, a filter the list does not take. */
  usage: 2,
  /** The API refused the request (4xx): not authenticated, not allowed, not found, invalid. */
  refused: 3,
  /** The API could not be reached or kept failing (connection errors, 5xx, 429 after the retries). */
  unavailable: 4,
  /**
   * The order ended erred, rejected or canceled (its error_message is on stderr), or what `wait`
   * watches reached a state it never leaves without its condition holding.
   */
  orderFailed: 5,
  /** `--timeout` passed before the order or the condition got there; nothing was canceled. */
  timeout: 6,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `
Exit codes:
  0    success
  1    unexpected failure
  2    bad input (unknown flag, malformed JSON/YAML, bad JMESPath, bad --filter); nothing was sent
  3    the API refused the request (4xx)
  4    the API could not be reached (connection errors, 5xx, 429, after retries)
  5    the order ended erred, rejected or canceled (its error_message on stderr), or a wait's
       condition can no longer hold (the object is done, canceled, rejected or Terminated)
  6    timed out waiting (the order may still complete; nothing is canceled)
  130  interrupted`;
