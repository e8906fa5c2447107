/**
 * The clear text of every token and password a test file used, and everything that must never
 * hold one: the apps' log lines and the API's answers. A token may appear in exactly one place, the
 * answer that issued it (login, `refresh_token`).
 *
 * One registry per test file (Jest gives each file its own modules): app processes register their
 * log lines, the fetch recorder registers tokens sent and issued and every answer, tests register
 * the passwords they type. `test/support/secret-scan.setup.ts` checks it after each e2e file.
 */
export interface Leak {
  secret: string;
  where: string;
}

/** Shorter strings are not worth scanning for: they would match by chance. */
const MIN_SECRET_LENGTH = 8;

const secrets = new Map<string, string>();
const logSources: { name: string; lines: () => readonly unknown[] }[] = [];
const answers: { where: string; text: string }[] = [];
const pending: Promise<void>[] = [];

/** A token or password the test used; `label` names it in a failure without printing it. */
export function rememberSecret(value: string, label: string): void {
  if (value.length >= MIN_SECRET_LENGTH && !secrets.has(value)) secrets.set(value, label);
}

export function registerLogSource(name: string, lines: () => readonly unknown[]): void {
  logSources.push({ name, lines });
}

/**
 * An answer the API gave; `issued` is a token it hands out by design (and is itself remembered as
 * a secret, so it must not show up anywhere else).
 */
export function recordAnswer(where: string, text: string, issued?: string): void {
  if (issued) rememberSecret(issued, `token issued by ${where}`);
  answers.push({ where, text: issued ? text.split(issued).join('<issued token>') : text });
}

const TOKEN_HEADER = /^\s*token\s+([0-9a-f]{40})\s*$/i;
const ISSUES_TOKENS = /\/(api-auth\/password|refresh_token)\/?$/;
const PASSWORD_FIELDS = ['password', 'new_password', 'current_password'];

function authorizationOf(headers: RequestInit['headers']): string | undefined {
  if (!headers) return undefined;
  return new Headers(headers).get('authorization') ?? undefined;
}

/**
 * Wraps `fetch` so every e2e file's requests feed the registry: tokens sent in `Authorization`,
 * passwords sent to the password routes, and each answer (event streams excepted: they never end).
 */
export function installFetchRecorder(): void {
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const token = TOKEN_HEADER.exec(authorizationOf(init?.headers) ?? '')?.[1];
    if (token) rememberSecret(token, `token sent to ${url.pathname}`);
    if (typeof init?.body === 'string' && /password/.test(url.pathname)) {
      try {
        const body = JSON.parse(init.body) as Record<string, unknown>;
        for (const field of PASSWORD_FIELDS) {
          const value = body[field];
          if (typeof value === 'string') rememberSecret(value, `${field} sent to ${url.pathname}`);
        }
      } catch {
        // Not JSON: nothing to remember.
      }
    }
    const response = await original(input, init);
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      const where = `${init?.method ?? 'GET'} ${url.pathname}`;
      pending.push(
        response
          .clone()
          .text()
          .then((text) => {
            let issued: string | undefined;
            if (ISSUES_TOKENS.test(url.pathname) && response.ok) {
              issued = (JSON.parse(text) as { token?: string }).token;
            }
            recordAnswer(
              `${where} → ${response.status}`,
              `${[...response.headers].join('\n')}\n${text}`,
              issued,
            );
          })
          .catch(() => undefined),
      );
    }
    return response;
  };
}

/** Every place a remembered secret appears where it must not. */
export async function findLeaks(): Promise<Leak[]> {
  await Promise.all(pending.splice(0));
  const places = [
    ...logSources.flatMap(({ name, lines }) =>
      lines().map((line, index) => ({ where: `${name} log line ${index + 1}`, text: JSON.stringify(line) })),
    ),
    ...answers.map(({ where, text }) => ({ where: `answer to ${where}`, text })),
  ];
  return leaksIn(secrets, places);
}

/** The pure half of `findLeaks`: each (secret, place) where the place holds the secret. */
export function leaksIn(
  secretLabels: ReadonlyMap<string, string>,
  places: readonly { where: string; text: string }[],
): Leak[] {
  const leaks: Leak[] = [];
  for (const [secret, label] of secretLabels) {
    // As written, and as JSON writes it inside a string (a log line is JSON).
    const escaped = JSON.stringify(secret).slice(1, -1);
    for (const place of places) {
      if (place.text.includes(secret) || place.text.includes(escaped))
        leaks.push({ secret: label, where: place.where });
    }
  }
  return leaks;
}

/** Counts, for a test that wants to show what it scanned. */
export function scanScope(): { secrets: number; logLines: number; answers: number } {
  return {
    secrets: secrets.size,
    logLines: logSources.reduce((sum, source) => sum + source.lines().length, 0),
    answers: answers.length,
  };
}
