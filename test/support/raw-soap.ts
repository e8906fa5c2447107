import { Agent, request } from 'node:https';
import { buildEnvelope, readResponse, VimFault, type SoapObject, type XmlValue } from '@app/vim25';

/** One vim25 call's answer as a bare client sees it: the decoded value or the fault type, and the cookie set. */
export interface RawSoapAnswer {
  readonly status: number;
  readonly body: string;
  /** `name=value` of the `vmware_soap_session` cookie the server set, if any. */
  readonly cookie?: string;
  readonly value?: XmlValue;
  readonly faultType?: string;
  readonly faultMessage?: string;
}

/**
 * POSTs one vim25 call to `${url}/sdk` on a fresh TLS connection (no keep-alive, no session unless
 * `cookie` is given): what someone holding only a URL or a ticket can do. Verifies TLS with `caPem`.
 */
export function rawSoap(
  target: { url: string; caPem: string },
  method: string,
  self: { type: string; value: string },
  args: SoapObject = {},
  cookie?: string,
): Promise<RawSoapAnswer> {
  const url = new URL('/sdk', target.url);
  const body = buildEnvelope(method, self, args);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        ca: target.caPem,
        agent: new Agent({ keepAlive: false, ca: target.caPem }),
        headers: {
          'content-type': 'text/xml; charset=utf-8',
          soapaction: '"urn:vim25/8.0.2.0"',
          ...(cookie === undefined ? {} : { cookie }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const set = res.headers['set-cookie']?.find((c) => c.startsWith('vmware_soap_session='));
          const answer = { status: res.statusCode ?? 0, body: text, cookie: set?.split(';')[0] };
          try {
            const status = answer.status === 200 ? 200 : 500;
            resolve({ ...answer, value: readResponse(method, { status, body: text }) });
          } catch (err) {
            if (err instanceof VimFault)
              resolve({ ...answer, faultType: err.faultType, faultMessage: err.message });
            else reject(err instanceof Error ? err : new Error(String(err)));
          }
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/**
 * Whether `cookie` names a live vim25 session: a RetrievePropertiesEx of the root folder's name
 * with it. vCenter and vcsim answer an unauthenticated one NotAuthenticated (as a fault, or as a
 * missingSet fault of the object); a live session reads the name.
 */
export async function holdsSession(
  target: { url: string; caPem: string },
  cookie: string | undefined,
): Promise<boolean> {
  const answer = await rawSoap(
    target,
    'RetrievePropertiesEx',
    { type: 'PropertyCollector', value: 'propertyCollector' },
    {
      specSet: {
        propSet: { type: 'Folder', pathSet: 'name' },
        objectSet: { obj: { type: 'Folder', value: 'group-d1' }, skip: false },
      },
      options: {},
    },
    cookie,
  );
  return answer.faultType === undefined && !/type="NotAuthenticated"/.test(answer.body);
}
