import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parse, stringify } from 'yaml';
import { CliError } from '../cli-error';

/** One named connection: what `login` and `config set` save. */
export interface Profile {
  api_url?: string;
  token?: string;
  /** The ambient project: its uuid or URL, filled into an order body that has none. */
  project?: string;
}

/** The profile file (`~/.config/waldur-cli/config.yaml`): named profiles. */
export interface ProfileFile {
  profiles: Record<string, Profile>;
}

const PROFILE_KEYS: readonly (keyof Profile)[] = ['api_url', 'token', 'project'];

/** Reads the file; a missing file is no profiles, a malformed one is an error naming the file. */
export async function readProfiles(path: string): Promise<ProfileFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = parse(text);
  } catch (error) {
    throw CliError.usage(`${path}: not valid YAML: ${(error as Error).message}`);
  }
  return toProfileFile(parsed, path);
}

export function toProfileFile(parsed: unknown, path: string): ProfileFile {
  if (parsed === null || parsed === undefined) return { profiles: {} };
  const profiles = (parsed as { profiles?: unknown }).profiles;
  if (
    typeof parsed !== 'object' ||
    (profiles !== undefined && (typeof profiles !== 'object' || profiles === null))
  )
    throw CliError.usage(`${path}: expected a mapping with "profiles: {name: {api_url, token, project}}"`);
  const result: ProfileFile = { profiles: {} };
  for (const [name, value] of Object.entries((profiles ?? {}) as Record<string, unknown>)) {
    const profile: Profile = {};
    for (const key of PROFILE_KEYS) {
      const field = (value as Record<string, unknown> | null)?.[key];
      if (field === undefined || field === null) continue;
      if (typeof field !== 'string')
        throw CliError.usage(`${path}: profiles.${name}.${key} must be a string`);
      profile[key] = field;
    }
    result.profiles[name] = profile;
  }
  return result;
}

/** Sets fields of one profile and writes the file atomically, readable by its owner only (it holds a token). */
export async function updateProfile(path: string, name: string, changes: Profile): Promise<void> {
  const file = await readProfiles(path);
  file.profiles[name] = { ...file.profiles[name], ...changes };
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, stringify(file), { mode: 0o600 });
  await rename(temporary, path);
}
