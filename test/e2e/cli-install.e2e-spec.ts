import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCli } from '../support/cli-process';

jest.setTimeout(300_000);

const REPO = join(__dirname, '..', '..');

/**
 * `npm pack` of the built repository, then `npm install -g` of that tarball into a prefix of its
 * own, as the README says a user installs `waldur-cli`. The installed copy runs from outside the
 * repository, so every module it loads comes from the tarball and the dependencies npm installed
 * for it. Dependencies come from npm's cache where it has them (`--prefer-offline`), else the
 * registry; no install scripts run.
 */
describe('waldur-cli installed with npm install -g from a packed tarball', () => {
  const dir = mkdtempSync(join(tmpdir(), 'waldur-cli-install-'));
  const prefix = join(dir, 'prefix');
  // npm and the installed bin run on the project's Node, as a user's PATH would give them one. The
  // user's environment stays (a registry behind a proxy needs its CA: NODE_EXTRA_CA_CERTS, proxy
  // variables), but not what `npm test` adds for its scripts (npm_config_*, npm_package_*), which
  // would point this install at the repository's own configuration.
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_'))),
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? dir,
  } as Record<string, string>;
  const npm = (args: string[]) => runCli([], env, { command: ['npm', ...args], cwd: dir });
  const installed = (args: string[]) =>
    runCli(args, env, { command: [join(prefix, 'bin', 'waldur-cli')], cwd: dir });

  beforeAll(async () => {
    const packed = await npm(['pack', REPO, '--silent', '--pack-destination', dir]);
    expect({ code: packed.code, stderr: packed.stderr }).toMatchObject({ code: 0 });
    const tarball = readdirSync(dir).find((file) => file.endsWith('.tgz'));
    expect(tarball).toBe(packed.stdout.trim());
    const install = await npm([
      'install',
      '--global',
      '--prefix',
      prefix,
      '--prefer-offline',
      // An unreachable registry fails the test in a minute, not after npm's retries of every package.
      '--fetch-retries=1',
      '--fetch-timeout=30000',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      join(dir, tarball!),
    ]);
    expect({ code: install.code, stderr: install.stderr }).toMatchObject({ code: 0 });
  });

  it('puts waldur-cli on the prefix bin, printing its help with the exit codes', async () => {
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'vsphere-marketplace', 'dist'))).toBe(true);
    const help = await installed(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage: waldur-cli');
    expect(help.stdout).toContain('Exit codes:');
  });

  it('runs commands that load the lazily required modules: YAML skeletons, JMESPath, HTTP, completion', async () => {
    const skeleton = await installed(['marketplace', 'resource', 'provision', '--generate-skeleton', 'yaml']);
    expect(skeleton).toMatchObject({ code: 0, stderr: '' });
    expect(skeleton.stdout).toContain('accepting_terms_of_service: true');

    // Nothing listens on port 1: the GET is tried and the API cannot be reached (exit 4), JSON on stderr.
    const unreachable = await installed([
      'marketplace',
      'order',
      'wait',
      '6d3c1f0e-8a3b-4c1d-9e2f-0a1b2c3d4e5f',
      '--jmespath',
      "state=='done'",
      '--api-url',
      'http://127.0.0.1:1',
      '--token',
      'x',
      '--max-retries',
      '0',
      '--format',
      'json',
    ]);
    expect(unreachable).toMatchObject({ code: 4, stdout: '' });
    expect(Object.keys(JSON.parse(unreachable.stderr) as object)).toContain('error');

    const badCondition = await installed(['marketplace', 'order', 'wait', 'x', '--jmespath', 'state==']);
    expect(badCondition.code).toBe(2);

    for (const shell of ['bash', 'zsh']) {
      const completion = await installed(['completion', shell]);
      expect(completion).toMatchObject({ code: 0, stderr: '' });
      expect(completion.stdout).toContain('waldur-cli');
    }
  });
});
