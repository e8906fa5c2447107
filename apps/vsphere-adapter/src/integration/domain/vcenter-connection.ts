/** What the adapter needs to reach an offering's vCenter (the password in clear: never log this). */
export interface VcenterConnection {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  readonly verifySsl: boolean;
  readonly caPem?: string;
}

/** The integration lacks a field without which vCenter cannot be reached. */
export class IncompleteCredentialsError extends Error {
  override readonly name = 'IncompleteCredentialsError';

  constructor(readonly missing: readonly string[]) {
    super(
      `The credentials are incomplete: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set.`,
    );
  }
}

/**
 * The connection from the stored fields; throws IncompleteCredentialsError naming every missing
 * one, as the seed's first save shows (ERRED until all fields are there). Pure.
 */
export function connectionOf(fields: {
  backendUrl: string;
  username: string;
  password: string | undefined;
  verifySsl: boolean;
  caPem: string | null;
}): VcenterConnection {
  const missing = [
    fields.backendUrl === '' && 'backend_url',
    fields.username === '' && 'username',
    (fields.password === undefined || fields.password === '') && 'password',
  ].filter((m): m is string => m !== false);
  if (missing.length > 0) throw new IncompleteCredentialsError(missing);
  return {
    url: fields.backendUrl,
    username: fields.username,
    password: fields.password as string,
    verifySsl: fields.verifySsl,
    caPem: fields.verifySsl && fields.caPem !== null ? fields.caPem : undefined,
  };
}
