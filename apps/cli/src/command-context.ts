import { readEnvironment } from './config/environment';
import { readProfiles } from './config/profile-store';
import { resolveSettings, type GlobalFlags, type Settings } from './config/settings';
import { ApiClient } from './http/api-client';
import { DebugLog } from './http/debug-log';
import { JmesPathExpression } from './output/jmespath-expression';
import { parseFormat, render, type OutputFormat } from './output/render';

/** The global options as commander gives them (`optsWithGlobals()`). */
export interface GlobalOptions extends GlobalFlags {
  format?: string;
  jmespath?: string;
}

/** What a command runs with: settings, the API client, and how to print. */
export class CommandContext {
  private constructor(
    readonly settings: Settings,
    readonly client: ApiClient,
    readonly log: DebugLog,
    readonly format: OutputFormat,
    readonly jmespath: JmesPathExpression | undefined,
  ) {}

  /** Everything is checked here, before any request: a bad format or JMESPath is exit 2. */
  static async create(options: GlobalOptions): Promise<CommandContext> {
    const jmespath =
      options.jmespath === undefined ? undefined : JmesPathExpression.compile(options.jmespath);
    const format = parseFormat(options.format, process.stdout.isTTY === true);
    const env = readEnvironment();
    const settings = resolveSettings(options, env, await readProfiles(env.configPath));
    const log = new DebugLog(settings.debug);
    return new CommandContext(settings, new ApiClient(settings, log), log, format, jmespath);
  }

  /** Prints an answer to stdout, reshaped by `--jmespath` unless the command used it otherwise. */
  print(data: unknown, columns?: readonly string[], options: { reshape?: boolean } = {}): void {
    const jmespath = options.reshape === false ? undefined : this.jmespath;
    process.stdout.write(render(data, { format: this.format, jmespath, columns }));
  }

  /** A live progress line only on a terminal: piped, only the result is printed. */
  get interactive(): boolean {
    // A terminal that reports no width (a bare pty) is not drawn on: the spinner library divides by it.
    return (
      process.stdout.isTTY === true && process.stderr.isTTY === true && (process.stderr.columns ?? 0) > 0
    );
  }
}
