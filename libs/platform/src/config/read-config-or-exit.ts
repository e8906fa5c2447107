import { createLogger } from '../logging/json-logger';
import { ConfigError } from './load-config';

/**
 * Loads an app's config; on failure writes one fatal JSON line naming every bad variable and
 * exits 1. Before the config is known its log level is not, so the line goes out at `info`.
 */
export function readConfigOrExit<C>(app: string, load: () => C): C {
  try {
    return load();
  } catch (error) {
    const problems = error instanceof ConfigError ? error.problems : undefined;
    createLogger(app, 'info').fatal({ problems }, error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
