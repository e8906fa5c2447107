import type { IncomingMessage } from 'node:http';
import { ApiError } from './http-types';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Reads a JSON request body. Written here rather than taken from Express so that every failure is
 * a clean 4xx with a `detail`, as Django REST framework answers: malformed JSON 400, a body that is
 * not JSON 415, one too large 413. An empty body reads as `{}` (missing fields are then named).
 */
export async function readJsonBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) throw new ApiError(413, { detail: `Request body is larger than ${limit} bytes.` });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new ApiError(413, { detail: `Request body is larger than ${limit} bytes.` });
    chunks.push(buffer);
  }
  return parseJsonBody(Buffer.concat(chunks).toString('utf8'), request.headers['content-type']);
}

/** The pure half of `readJsonBody`, for tests. */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === '') return {};
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
    throw new ApiError(415, { detail: `Unsupported media type "${mediaType || 'none'}" in request.` });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(400, {
      detail: `JSON parse error - ${error instanceof Error ? error.message : String(error)}`,
    });
  }
}
