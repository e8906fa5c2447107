/**
 * What a configuration error may show of a value. Secrets reach the environment in two shapes: a
 * variable that holds one (NATS_PASSWORD, NATS_NKEY_SEED) and the userinfo of a URL
 * (`postgres://app:pw@db/x`, `nats://token@nats:4222`). Neither is ever echoed.
 */

// A name that says it holds a secret; `*_FILE` names hold a path to one, which may be shown.
const SECRET_NAME = /(^|_)(PASSWORD|PASS|SECRET|SEED|TOKEN|KEY|CREDENTIALS)(_|$)/;

// Where the next URL of a comma-separated list starts.
const NEXT_URL = /,\s*[a-z][a-z0-9+.-]*:\/\//i;

export function isSecretVariable(name: string): boolean {
  return SECRET_NAME.test(name) && !name.endsWith('_FILE');
}

/**
 * Replaces the userinfo of every URL in `value` (one URL or a comma-separated list) with `***`.
 * A NATS URL's lone userinfo is a token, so a user name is hidden too. Passwords are often pasted
 * unencoded, so a URL's userinfo runs to its last `@`, whatever `/`, `,` or `@` it holds.
 */
export function redactUrlUserinfo(value: string): string {
  const parts: string[] = [];
  let rest = value;
  for (let scheme = rest.indexOf('://'); scheme !== -1; scheme = rest.indexOf('://')) {
    parts.push(rest.slice(0, scheme + 3));
    rest = rest.slice(scheme + 3);
    const next = NEXT_URL.exec(rest);
    const url = rest.slice(0, next ? next.index : rest.length);
    const at = url.lastIndexOf('@');
    parts.push(at === -1 ? url : `***${url.slice(at)}`);
    rest = rest.slice(url.length);
  }
  parts.push(rest);
  return parts.join('');
}

/** The value as a configuration error quotes it: hidden for a secret variable, URLs without userinfo. */
export function describeValue(name: string, value: string | undefined): string {
  if (value === undefined) return 'unset';
  if (isSecretVariable(name)) return 'set, value hidden';
  return `"${redactUrlUserinfo(value)}"`;
}
