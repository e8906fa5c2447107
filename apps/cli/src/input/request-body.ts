import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { API_PATHS } from '@app/contracts/http/api-paths';
import { parse } from 'yaml';
import { CliError } from '../cli-error';
import { omitNulls } from './omit-nulls';

export interface RequestSource {
  request?: string;
  requestFile?: string;
}

/**
 * The body of `--request TEXT` or `--request-file FILE` (`-` for stdin), JSON or YAML, as a mapping
 * without its null fields; `{}` when neither is given. Malformed input is a usage error (exit 2),
 * before any request.
 */
export async function readRequestBody(source: RequestSource): Promise<Record<string, unknown>> {
  if (source.request !== undefined && source.requestFile !== undefined)
    throw CliError.usage('--request and --request-file cannot be used together');
  if (source.request !== undefined) return parseRequestText(source.request, '--request');
  if (source.requestFile !== undefined) {
    const text = await readText(source.requestFile);
    return parseRequestText(text, source.requestFile);
  }
  return {};
}

async function readText(file: string): Promise<string> {
  try {
    return file === '-' ? readFileSync(0, 'utf8') : await readFile(file, 'utf8');
  } catch (error) {
    throw CliError.usage(`--request-file: cannot read ${file}: ${(error as Error).message}`);
  }
}

/** JSON first (the common case, and its error message is the clearer); then YAML, a superset. */
export function parseRequestText(text: string, origin: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (jsonError) {
    try {
      parsed = parse(text);
    } catch (yamlError) {
      const looksJson = /^\s*[[{]/.test(text);
      const reason = looksJson ? (jsonError as Error).message : (yamlError as Error).message.split('\n')[0];
      throw CliError.usage(`${origin}: not valid ${looksJson ? 'JSON' : 'YAML'}: ${reason}`);
    }
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw CliError.usage(
      `${origin}: expected a JSON or YAML object, got ${Array.isArray(parsed) ? 'a list' : typeof parsed}`,
    );
  return (omitNulls(parsed) ?? {}) as Record<string, unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The ambient project as the body's `project` link: a bare uuid becomes its URL. */
export function projectLink(project: string, apiUrl: string): string {
  return UUID.test(project) ? `${apiUrl}${API_PATHS.projects}${project.toLowerCase()}/` : project;
}

/** Fills `project` from the ambient scope unless the body names one (the body wins). */
export function withAmbientProject(
  body: Record<string, unknown>,
  project: string | undefined,
  apiUrl: string,
): Record<string, unknown> {
  if (body.project !== undefined || project === undefined) return body;
  return { ...body, project: projectLink(project, apiUrl) };
}
