import type { AddressCheck } from '@app/vim25';

/** What the adapter needs to reach an offering's vCenter (the password in clear: never log this). */
export interface VcenterConnection {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly verifySsl: boolean;
  readonly caPem?: string;
  /** Asked before every connection the transports open (`VCENTER_ALLOWED_NETWORKS`). */
  readonly addressCheck: AddressCheck;
  /** Resolving, connecting and the TLS handshake, in ms (`VCENTER_CONNECT_TIMEOUT_MS`). */
  readonly connectTimeoutMs: number;
}

/** The integration lacks a field without which vCenter cannot be reached. */
export class IncompleteCredentialsError extends Error {
  override readonly name: string = 'IncompleteCredentialsError';

  constructor(
    readonly missing: readonly string[],
    message = `The credentials are incomplete: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set.`,
  ) {
    super(message);
  }
}

/**
 * The stored password was entered for another vCenter address than the one now saved: it is not
 * sent (a changed backend_url clears it; this holds even if something left it in place). To its
 * callers, a password that is missing.
 */
export class PasswordNotForThisUrlError extends IncompleteCredentialsError {
  override readonly name = 'PasswordNotForThisUrlError';

  constructor() {
    super(
      ['password'],
      'The stored password was entered for another backend_url, so it is not sent; enter it again.',
    );
  }
}

/** How the adapter reaches any vCenter: the address check and the connect timeout. */
export interface VcenterNetwork {
  readonly addressCheck: AddressCheck;
  readonly connectTimeoutMs: number;
}

/**
 * The connection from the stored fields; throws IncompleteCredentialsError naming every missing
 * one, as the seed's first save shows (ERRED until all fields are there), and
 * PasswordNotForThisUrlError when the password is bound to another address. Pure.
 */
export function connectionOf(
  fields: {
    backendUrl: string;
    username: string;
    password: string | undefined;
    /** The backend_url the password was entered for. */
    passwordUrl: string | null;
    verifySsl: boolean;
    caPem: string | null;
  },
  network: VcenterNetwork,
): VcenterConnection {
  const missing = [
    fields.backendUrl === '' && 'backend_url',
    fields.username === '' && 'username',
    (fields.password === undefined || fields.password === '') && 'password',
  ].filter((m): m is string => m !== false);
  if (missing.length > 0) throw new IncompleteCredentialsError(missing);
  if (fields.passwordUrl !== fields.backendUrl) throw new PasswordNotForThisUrlError();
  return {
    url: fields.backendUrl,
    username: fields.username,
    password: fields.password as string,
    verifySsl: fields.verifySsl,
    caPem: fields.verifySsl && fields.caPem !== null ? fields.caPem : undefined,
    addressCheck: network.addressCheck,
    connectTimeoutMs: network.connectTimeoutMs,
  };
}
