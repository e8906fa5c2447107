import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `bin/waldur-cli.js`, built by `npm run build`, as a user runs it. */
export const CLI_BIN = join(__dirname, '..', '..', 'bin', 'waldur-cli.js');

/**
 * `waldur-cli` as a separate process with the given environment only (plus PATH and HOME), so no
 * profile or variable of the machine leaks in. `done` resolves when it exits.
 */
export function startCli(
  args: string[],
  env: Record<string, string>,
  options: { stdin?: string; command?: string[]; cwd?: string } = {},
): { done: Promise<CliResult>; kill: () => void; output: () => { stdout: string; stderr: string } } {
  const started = Date.now();
  const [file, ...prefix] = options.command ?? [process.execPath, CLI_BIN];
  const child = spawn(file, [...prefix, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: options.cwd,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // A command that exits without reading its stdin (tmux, a failed start) is not an error of the test.
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.stdin ?? '');
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
  return { done, kill: () => child.kill('SIGKILL'), output: () => ({ stdout, stderr }) };
}

export function runCli(
  args: string[],
  env: Record<string, string>,
  options: { stdin?: string; command?: string[]; cwd?: string } = {},
): Promise<CliResult> {
  return startCli(args, env, options).done;
}
