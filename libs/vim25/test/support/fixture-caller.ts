import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SoapCallOptions, SoapCaller, SoapReply } from '@app/vim25';

/** The text of a recorded wire sample in `libs/vim25/test/fixtures`. */
export function fixture(name: string): string {
  return readFileSync(join(__dirname, '..', 'fixtures', name), 'utf8');
}

/** A reply as vcsim sent it: HTTP 500 when the body holds a SOAP fault. */
export function replyOf(name: string, sessionCookie?: string): SoapReply {
  const body = fixture(name);
  return { status: body.includes('<soapenv:Fault>') ? 500 : 200, body, sessionCookie };
}

/** One request the scripted caller received. */
export interface RecordedCall {
  readonly operation: string;
  readonly envelope: string;
  readonly options: SoapCallOptions | undefined;
}

/**
 * A SoapCaller that answers each operation with the next scripted reply (by operation name)
 * and records the requests. A missing script entry fails the test with the operation's name.
 */
export class ScriptedCaller implements SoapCaller {
  readonly calls: RecordedCall[] = [];
  private readonly script = new Map<string, (SoapReply | ((envelope: string) => SoapReply))[]>();

  on(operation: string, ...replies: (SoapReply | ((envelope: string) => SoapReply))[]): this {
    this.script.set(operation, [...(this.script.get(operation) ?? []), ...replies]);
    return this;
  }

  call(operation: string, envelope: string, options?: SoapCallOptions): Promise<SoapReply> {
    this.calls.push({ operation, envelope, options });
    const next = this.script.get(operation)?.shift();
    if (next === undefined) return Promise.reject(new Error(`unscripted call ${operation}`));
    return Promise.resolve(typeof next === 'function' ? next(envelope) : next);
  }

  operations(): string[] {
    return this.calls.map((c) => c.operation);
  }
}
