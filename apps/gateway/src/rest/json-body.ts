import type { IncomingMessage } from 'node:http';
import { ApiError } from './http-types';
import { findStructureProblem, MAX_JSON_DEPTH } from './json-structure';

/** Far above any body the API takes (its longest field is 2,000 characters), far below NATS's 1 MiB message. */
export const MAX_BODY_BYTES = 256 * 1024;
/** An oversized body is read and dropped up to this much, so the client reads the 413 instead of a reset. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function tooLarge(limit: number): ApiError {
  return new ApiError(413, { detail: `Request body is larger than ${limit} bytes.` });
}

/**
 * Reads a JSON request body. Written here rather than taken from Express so that every failure is
 * a clean 4xx with a `detail`, as Django REST framework answers: a compressed body 415, one too
 * large 413, malformed JSON 400. An empty body reads as `{}` (missing fields are then named).
 */
export async function readJsonBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== '') {
    await drain(request);
    throw new ApiError(415, {
      detail: `Unsupported content encoding "${encoding.slice(0, 40)}" in request.`,
    });
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) {
    await drain(request);
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of request) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > limit) break;
      chunks.push(buffer);
    }
  } catch {
    // The client went away mid-body: whatever is answered, nobody reads it.
    throw new ApiError(400, { detail: 'The request body ended early.' });
  }
  if (size > limit) {
    await drain(request);
    throw tooLarge(limit);
  }
  return parseJsonBody(Buffer.concat(chunks), request.headers['content-type']);
}

/** Reads and drops the rest of a refused body (up to a bound), so the connection can carry the answer. */
async function drain(request: IncomingMessage): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of request) {
      size += (chunk as Buffer).length;
      if (size > DRAIN_LIMIT_BYTES) {
        request.destroy();
        return;
      }
    }
  } catch {
    // Gone already.
  }
}

/** `application/json` or `application/<anything>+json`, in UTF-8 (the only encoding JSON has, RFC 8259). */
function checkMediaType(contentType: string | undefined): void {
  const [type, ...parameters] = (contentType ?? '').split(';');
  const mediaType = type.trim().toLowerCase();
  if (mediaType !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
    const shown = JSON.stringify((mediaType || 'none').slice(0, 100));
    throw new ApiError(415, { detail: `Unsupported media type ${shown} in request.` });
  }
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=');
    if (name.trim().toLowerCase() !== 'charset') continue;
    const charset = value
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError(415, { detail: 'Unsupported charset in request: JSON is read as UTF-8.' });
    }
  }
}

/** The pure half of `readJsonBody`, for tests. */
export function parseJsonBody(raw: Buffer | string, contentType: string | undefined): unknown {
  if (raw.length === 0) return {};
  checkMediaType(contentType);
  let text: string;
  try {
    text = typeof raw === 'string' ? raw : utf8.decode(raw);
  } catch {
    throw new ApiError(400, { detail: 'JSON parse error - the body is not valid UTF-8.' });
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(400, { detail: `JSON parse error - ${syntaxProblem(error)}` });
  }
  const problem = findStructureProblem(text);
  if (problem?.kind === 'duplicate-key') {
    const key = JSON.stringify(problem.key.slice(0, 100));
    throw new ApiError(400, { detail: `JSON parse error - key ${key} appears twice in one object.` });
  }
  if (problem?.kind === 'too-deep') {
    throw new ApiError(400, {
      detail: `JSON parse error - nested deeper than ${MAX_JSON_DEPTH} levels.`,
    });
  }
  return value;
}

/**
 * Where the JSON broke, without V8's quote of the text around it: that quote would echo part of the
 * body (a password, in a broken login) into the answer.
 */
function syntaxProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/.exec(message);
  if (position) return `malformed JSON at position ${position[1]}.`;
  return /end of JSON input/i.test(message) ? 'unexpected end of input.' : 'malformed JSON.';
}
