import { toTransportError } from './transport-errors';

const idle = { timedOut: false, aborted: false, timeoutMs: 1000 };

describe('toTransportError', () => {
  it('says clearly that a certificate was not trusted, and how to fix it', () => {
    const cause = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    const err = toTransportError('Login', 'https://vc:443', cause, idle);
    expect(err).toMatchObject({ kind: 'tls', operation: 'Login', cause });
    expect(err.message).toBe(
      "Login to https://vc:443 failed: the server's TLS certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain); " +
        'give the vCenter CA certificate (ca) or turn certificate verification off (verifySsl: false)',
    );
  });

  it('reports a host name mismatch as a TLS error', () => {
    const cause = Object.assign(new Error("Hostname/IP does not match certificate's altnames"), {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    expect(toTransportError('Login', 'https://vc', cause, idle).kind).toBe('tls');
  });

  it('names socket errors with their code, and tells timeouts from caller aborts', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(toTransportError('Login', 'https://vc', refused, idle).message).toBe(
      'Login to https://vc failed: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(toTransportError('Login', 'https://vc', new Error('x'), { ...idle, timedOut: true }).message).toBe(
      'Login to https://vc timed out after 1000 ms',
    );
    expect(toTransportError('Login', 'https://vc', new Error('x'), { ...idle, aborted: true }).kind).toBe(
      'aborted',
    );
  });

  it('never prints [object Object] for odd throwables', () => {
    expect(toTransportError('Login', 'https://vc', { weird: true }, idle).message).not.toContain(
      '[object Object]',
    );
  });
});
