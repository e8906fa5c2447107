import { VimTransportError } from './vim-errors';

// OpenSSL/Node verification codes that mean "the server's certificate was not accepted".
const CERT_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

// Errors thrown by Node's sockets may come from another realm (e.g. under Jest), so read them
// by shape rather than with `instanceof Error`.
type ErrorLike = { message?: unknown; code?: unknown; cause?: unknown };

function causes(err: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (
    let e: unknown = err;
    typeof e === 'object' && e !== null && chain.length < 5;
    e = (e as ErrorLike).cause
  ) {
    chain.push(e);
  }
  return chain;
}

function codeOf(err: unknown): string | undefined {
  for (const e of causes(err)) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return e.code;
  }
  return undefined;
}

function messageOf(err: unknown): string {
  if (typeof err === 'string') return err;
  const parts: string[] = [];
  for (const e of causes(err)) {
    if (typeof e.message === 'string' && e.message !== '' && !parts.includes(e.message))
      parts.push(e.message);
  }
  return parts.join(': ') || 'unknown error';
}

/**
 * Turns what undici/Node threw for one request into a VimTransportError that names the
 * operation, the endpoint and the cause (a certificate problem says so and how to fix it).
 * Pure. `timedOut`/`aborted` tell which signal, if any, ended the request.
 */
export function toTransportError(
  operation: string,
  endpoint: string,
  err: unknown,
  state: { timedOut: boolean; aborted: boolean; timeoutMs: number },
): VimTransportError {
  if (err instanceof VimTransportError) return err;
  if (state.timedOut) {
    return new VimTransportError(
      operation,
      'timeout',
      `${operation} to ${endpoint} timed out after ${state.timeoutMs} ms`,
      { cause: err },
    );
  }
  if (state.aborted) {
    return new VimTransportError(
      operation,
      'aborted',
      `${operation} to ${endpoint} was aborted by the caller`,
      { cause: err },
    );
  }
  const code = codeOf(err);
  if (code === 'ERR_VCENTER_ADDRESS_REFUSED') {
    return new VimTransportError(
      operation,
      'refused',
      `${operation} to ${endpoint} refused: ${messageOf(err)}`,
      {
        cause: err,
      },
    );
  }
  if (
    code !== undefined &&
    (CERT_CODES.has(code) || code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL'))
  ) {
    return new VimTransportError(
      operation,
      'tls',
      `${operation} to ${endpoint} failed: the server's TLS certificate is not trusted (${code}: ${messageOf(err)}); ` +
        'give the vCenter CA certificate (ca) or turn certificate verification off (verifySsl: false)',
      { cause: err },
    );
  }
  return new VimTransportError(
    operation,
    'network',
    `${operation} to ${endpoint} failed: ${code ? `${code}: ` : ''}${messageOf(err)}`,
    { cause: err },
  );
}
