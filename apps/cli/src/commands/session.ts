import { API_PATHS } from '@app/contracts/http/api-paths';
import type { CommandContext } from '../command-context';
import { CliError } from '../cli-error';
import { updateProfile } from '../config/profile-store';

async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
}

/** `login`: a token for a username and password, saved with the API URL in the profile. */
export async function login(
  context: CommandContext,
  flags: { username: string; password?: string; passwordStdin?: boolean },
): Promise<void> {
  if (flags.password !== undefined && flags.passwordStdin)
    throw CliError.usage('--password and --password-stdin cannot be used together');
  const password = flags.passwordStdin ? await firstLineOfStdin() : flags.password;
  if (password === undefined) throw CliError.usage('login needs --password or --password-stdin');
  const { body } = await context.client.post<{ token: string }>(API_PATHS.login, {
    username: flags.username,
    password,
  });
  const { settings } = context;
  await updateProfile(settings.configPath, settings.profileName, {
    api_url: settings.apiUrl,
    token: body.token,
  });
  context.print({
    profile: settings.profileName,
    api_url: settings.apiUrl,
    username: flags.username,
    logged_in: true,
  });
}

export const PROFILE_KEYS = ['api_url', 'token', 'project'] as const;

/** `config set KEY VALUE`: `project` is the ambient project filled into order bodies. */
export async function configSet(context: CommandContext, key: string, value: string): Promise<void> {
  if (!(PROFILE_KEYS as readonly string[]).includes(key))
    throw CliError.usage(`config set ${key}: one of ${PROFILE_KEYS.join(', ')}`);
  const { settings } = context;
  await updateProfile(settings.configPath, settings.profileName, { [key]: value });
  context.print({ profile: settings.profileName, [key]: key === 'token' ? '(set)' : value });
}

/** `config show`: what a command would connect with, and from which file (never the token itself). */
export function configShow(context: CommandContext): void {
  const { settings } = context;
  context.print({
    profile: settings.profileName,
    config_file: settings.configPath,
    api_url: settings.apiUrl,
    token: settings.token ? '(set)' : null,
    project: settings.project ?? null,
  });
}
