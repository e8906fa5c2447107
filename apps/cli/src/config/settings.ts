import { CliError } from '../cli-error';
import type { Environment } from './environment';
import type { ProfileFile } from './profile-store';

/** The gateway `npm start` runs. */
export const DEFAULT_API_URL = 'http://127.0.0.1:8080';
export const DEFAULT_PROFILE = 'default';

/** The global flags, as given on the command line. */
export interface GlobalFlags {
  apiUrl?: string;
  token?: string;
  project?: string;
  profile?: string;
  debug?: boolean;
  httpTimeout?: number;
  maxRetries?: number;
}

/** Where to connect and as whom: each field from the flag, else the variable, else the profile. */
export interface Settings {
  apiUrl: string;
  token?: string;
  project?: string;
  profileName: string;
  configPath: string;
  debug: boolean;
  httpTimeoutMs: number;
  maxRetries: number;
}

export function resolveSettings(flags: GlobalFlags, env: Environment, file: ProfileFile): Settings {
  const profileName = flags.profile ?? env.profile ?? DEFAULT_PROFILE;
  const profile = file.profiles[profileName];
  // A profile asked for by name must exist; the implicit default may be absent.
  if (!profile && (flags.profile !== undefined || env.profile !== undefined))
    throw CliError.usage(`no profile "${profileName}" in ${env.configPath}`);
  const apiUrl = (flags.apiUrl ?? env.apiUrl ?? profile?.api_url ?? DEFAULT_API_URL).replace(/\/+$/, '');
  if (!URL.canParse(apiUrl) || !/^https?:/.test(apiUrl))
    throw CliError.usage(`--api-url: not an http(s) URL: ${apiUrl}`);
  return {
    apiUrl,
    token: flags.token ?? env.token ?? profile?.token,
    project: flags.project ?? env.project ?? profile?.project,
    profileName,
    configPath: env.configPath,
    debug: flags.debug ?? false,
    httpTimeoutMs: (flags.httpTimeout ?? 60) * 1000,
    maxRetries: flags.maxRetries ?? 3,
  };
}
