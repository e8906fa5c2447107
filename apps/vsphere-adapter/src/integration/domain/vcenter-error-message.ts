import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { CredentialCipherError } from './credential-cipher';
import { IncompleteCredentialsError } from './vcenter-connection';

// Codes that mean the certificate was seen and not accepted; any other TLS failure (a handshake
// with something that does not speak TLS) is told like a silent address.
const CERTIFICATE_CODE = /CERT|SELF_SIGNED|ALTNAME|HOSTNAME_MISMATCH|UNABLE_TO_(GET|VERIFY)/;
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'ENODATA', 'ETIMEOUT']);

const NO_ANSWER =
  'vCenter did not answer at backend_url (no connection could be made). Check the address and that vCenter is up.';

type ErrorLike = { code?: unknown; cause?: unknown; reason?: unknown };

/** The rule an AddressRefusedError names (the transport's), found by shape along the causes. */
function refusalReason(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const reason = (e as ErrorLike).reason;
    if (typeof reason === 'string') return reason;
    e = (e as ErrorLike).cause;
  }
  return 'its address is not allowed (VCENTER_ALLOWED_NETWORKS)';
}

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const code = (e as ErrorLike).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    e = (e as ErrorLike).cause;
  }
  return undefined;
}

/**
 * The integration's `error_message` for a failed synchronisation, saying which kind of failure it
 * was: vCenter's own message where vCenter answered (a wrong password gives InvalidLogin's text), a
 * TLS message for an untrusted certificate, the rule for an address that is not allowed. What
 * answered when it was not vCenter is never quoted (only its HTTP status), and a refused, reset or
 * silent port all read the same, so the message is no port scanner. Never holds the password
 * (none of the inputs carry it). Pure.
 */
export function describeVcenterError(err: unknown): string {
  if (err instanceof IncompleteCredentialsError) return err.message; // PasswordNotForThisUrlError too
  if (err instanceof CredentialCipherError)
    return `The stored password cannot be read (${err.message}); save the password again.`;
  if (err instanceof VimFault) return err.message;
  if (err instanceof VapiError)
    return err.errorType === 'UNAUTHENTICATED'
      ? `vCenter refused the credentials for its REST API: ${err.message}`
      : `vCenter's REST API answered ${err.errorType}: ${err.message}`;
  if (err instanceof VimTransportError) {
    const code = causeCode(err.cause);
    switch (err.kind) {
      case 'refused':
        return `backend_url may not be connected to: ${refusalReason(err.cause)}.`;
      case 'tls':
        if (code === undefined || !CERTIFICATE_CODE.test(code)) return NO_ANSWER;
        return (
          `TLS: vCenter's certificate is not trusted (${code}). ` +
          'Set ca_pem to the CA that signed it, or turn verify_ssl off.'
        );
      case 'network':
        return code !== undefined && DNS_CODES.has(code)
          ? "backend_url's host name does not resolve. Check the address."
          : NO_ANSWER;
      case 'timeout':
        return 'vCenter did not answer in time at backend_url.';
      case 'aborted':
        return 'The synchronisation was stopped before it ended.';
      case 'http':
        return `The address did not answer as a vCenter does (HTTP ${err.status ?? 'error'}). Is backend_url a vCenter?`;
      default:
        return 'The address did not answer as a vCenter does. Is backend_url a vCenter?';
    }
  }
  return err instanceof Error ? err.message : String(err);
}
