// npm run fuzz -- --runs N [--seed S] [--shrink]: the API fuzzer of test/e2e/api-fuzz.e2e-spec.ts
// with more cases than `npm test` runs, and a fresh random seed unless one is given. The seed is
// printed first; a failure prints the seed and path that replay it.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
};
const runs = Number(option('runs') ?? 3000);
const seed = Number(option('seed') ?? Math.floor(Math.random() * 2 ** 31));
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error('usage: npm run fuzz -- --runs N [--seed S] [--shrink]');
  process.exit(2);
}
console.log(`[fuzz] ${runs} runs, seed ${seed} (replay: npm run fuzz -- --runs ${runs} --seed ${seed})`);

const node = path.join(ROOT, 'node_modules', '.bin', 'node');
const build = spawnSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const jest = spawnSync(
  node,
  [
    '--experimental-vm-modules',
    path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--selectProjects',
    'e2e',
    '--runInBand',
    'test/e2e/api-fuzz.e2e-spec.ts',
  ],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_RUNS: String(runs),
      FUZZ_SEED: String(seed),
      FUZZ_SHRINK: args.includes('--shrink') ? '1' : '0',
    },
  },
);
if (jest.status !== 0)
  console.error(`[fuzz] failed with seed ${seed}: npm run fuzz -- --runs ${runs} --seed ${seed}`);
process.exit(jest.status ?? 1);
