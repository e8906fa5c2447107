import { VapiError, VimFault, VimTransportError } from '@app/vim25';
import { CredentialCipherError } from './credential-cipher';
import { IncompleteCredentialsError } from './vcenter-connection';

type ErrorLike = { code?: unknown; cause?: unknown };

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
 * connection message for an unreachable host, a TLS message for an untrusted certificate. Never
 * holds the password (none of the inputs carry it). Pure.
 */
export function describeVcenterError(err: unknown): string {
  if (err instanceof IncompleteCredentialsError) return err.message;
  if (err instanceof CredentialCipherError)
    return `The stored password cannot be read (${err.message}); save the password again.`;
  if (err instanceof VimFault) return err.message;
  if (err instanceof VapiError)
    return err.errorType === 'UNAUTHENTICATED'
      ? `vCenter refused the credentials for its REST API: ${err.message}`
      : `vCenter's REST API answered ${err.errorType}: ${err.message}`;
  if (err instanceof VimTransportError) {
    switch (err.kind) {
      case 'tls': {
        const code = causeCode(err.cause);
        return (
          `TLS: vCenter's certificate is not trusted${code ? ` (${code})` : ''}. ` +
          'Set ca_pem to the CA that signed it, or turn verify_ssl off.'
        );
      }
      case 'network':
        return `Cannot connect to vCenter: ${err.message}`;
      case 'timeout':
        return `vCenter did not answer in time: ${err.message}`;
      case 'aborted':
        return `The synchronisation was stopped before it ended: ${err.message}`;
      default:
        return `vCenter answered in an unexpected way (is backend_url a vCenter?): ${err.message}`;
    }
  }
  return err instanceof Error ? err.message : String(err);
}
