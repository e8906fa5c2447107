/** How a request failed below the SOAP level. */
export type VimTransportErrorKind =
  | 'tls'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'http'
  | 'protocol'
  /** The transport's address check refused the address; nothing was sent. */
  | 'refused';

/**
 * A vim25 SOAP fault or a failed vCenter task (`LocalizedMethodFault`), e.g. InvalidLogin,
 * NotAuthenticated, InvalidPowerState. `message` is vCenter's own text (localizedMessage or
 * faultstring); when vCenter sent none it is the fault type, never `[object Object]`.
 */
export class VimFault extends Error {
  override readonly name = 'VimFault';

  constructor(
    /** The SOAP method (or task) that failed, e.g. `PowerOffVM_Task`. */
    readonly operation: string,
    /** The vim25 fault type, e.g. `InvalidPowerState`. */
    readonly faultType: string,
    message: string,
    /** The decoded fault object (its fields as vCenter sent them), for callers that need more. */
    readonly detail?: Readonly<Record<string, unknown>>,
  ) {
    super(message.trim() === '' ? faultType : message);
  }

  /** `operation: faultType: message`, for logs. */
  get summary(): string {
    return `${this.operation}: ${this.faultType}: ${this.message}`;
  }
}

/**
 * The request to vCenter did not produce a SOAP answer: TLS or socket failure, timeout, abort,
 * an unexpected HTTP status or a body that is not a SOAP envelope. The message names the
 * operation, the endpoint and the cause.
 */
export class VimTransportError extends Error {
  override readonly name = 'VimTransportError';

  constructor(
    readonly operation: string,
    readonly kind: VimTransportErrorKind,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = options?.status;
  }

  /** HTTP status when `kind` is `http`. */
  readonly status: number | undefined;
}
