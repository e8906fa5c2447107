import { homedir } from 'node:os';
import { join } from 'node:path';

/** The variables `waldur-cli` reads: the only place that looks at `process.env`. */
export interface Environment {
  apiUrl?: string;
  token?: string;
  project?: string;
  profile?: string;
  /** Where the profile file is. */
  configPath: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const configHome = nonEmpty(env.XDG_CONFIG_HOME) ?? join(nonEmpty(env.HOME) ?? homedir(), '.config');
  return {
    apiUrl: nonEmpty(env.WALDUR_API_URL),
    token: nonEmpty(env.WALDUR_TOKEN),
    project: nonEmpty(env.WALDUR_PROJECT),
    profile: nonEmpty(env.WALDUR_PROFILE),
    configPath: nonEmpty(env.WALDUR_CLI_CONFIG) ?? join(configHome, 'waldur-cli', 'config.yaml'),
  };
}
