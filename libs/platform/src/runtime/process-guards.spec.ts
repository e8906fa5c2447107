import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..', '..');

/** Runs `body` in a fresh Node process with the guards installed on a JSON logger to stdout. */
function runGuarded(body: string) {
  const script = `
    const { createLogger } = require(${JSON.stringify(join(__dirname, '..', 'logging', 'json-logger.ts'))});
    const { installProcessGuards } = require(${JSON.stringify(join(__dirname, 'process-guards.ts'))});
    installProcessGuards(createLogger('guarded', 'info'));
    ${body}`;
  const child = spawnSync(process.execPath, ['-r', join(ROOT, 'scripts', 'ts-register.js'), '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 20_000,
  });
  const lines = child.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: string; msg: string; err?: { message?: string } });
  return { status: child.status, lines, stdout: child.stdout };
}

describe('installProcessGuards', () => {
  it('logs a promise rejected with nobody to handle it, and the process goes on', () => {
    const { status, lines, stdout } = runGuarded(`
      void Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
      setTimeout(() => console.log('still running'), 50);`);
    expect(status).toBe(0);
    expect(stdout).toContain('still running');
    expect(lines.filter((line) => line.level === 'error').map((line) => line.err?.message)).toEqual([
      'connect ECONNREFUSED 127.0.0.1:5432',
    ]);
  });

  it('writes a fatal line with the error before an uncaught exception ends the process', () => {
    const { status, lines } = runGuarded(`setTimeout(() => { throw new Error('boom'); }, 0);`);
    expect(status).toBe(1);
    expect(lines.filter((line) => line.level === 'fatal').map((line) => line.err?.message)).toEqual(['boom']);
  });
});
