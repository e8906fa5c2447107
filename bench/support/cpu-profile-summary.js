// node bench/support/cpu-profile-summary.js <a.cpuprofile|dir> [...] [--top N]
// Where a process spent its CPU, from a V8 CPU profile (APP_NODE_ARGS="--cpu-prof
// --cpu-prof-dir=<dir>" profiles every app a bench starts): the sampled time split by who runs it
// (our code, each npm package, Node's own modules, the garbage collector, V8's native work), and the
// functions with the most self time. Idle samples are left out of every share. The evidence for
// which part of a chain of processes sets a floor (bench/README.md, the orders bench).
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');

/** Who runs a call frame: `ours`, an npm package, `node:<module>`, or V8's own `(name)`. */
function owner(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const inModules = url.lastIndexOf('/node_modules/');
  if (inModules >= 0) {
    const parts = url.slice(inModules + 14).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return 'ours';
}

function summarize(path, top) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfUs = new Map();
  // timeDeltas[i] is the time before sample i; it is charged to the frame sampled.
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byOwner = new Map();
  const byFunction = new Map();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = frames.get(id);
    if (frame.functionName === '(idle)') continue;
    busyUs += us;
    const who = owner(frame);
    byOwner.set(who, (byOwner.get(who) ?? 0) + us);
    const file = frame.url ? frame.url.split('/').slice(-2).join('/') : '';
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const share = (us) => `${((100 * us) / busyUs).toFixed(1)} %`;
  const rows = (map) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  console.log(`${path}: ${(busyUs / 1e6).toFixed(2)} s busy`);
  for (const [who, us] of rows(byOwner)) console.log(`  ${share(us).padStart(7)}  ${who}`);
  console.log('  top self time:');
  for (const [key, us] of rows(byFunction)) console.log(`  ${share(us).padStart(7)}  ${key}`);
  return { file: path, busy_s: busyUs / 1e6, by_owner: Object.fromEntries(rows(byOwner)) };
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 15;
const files = args.flatMap((arg) =>
  statSync(arg).isDirectory()
    ? readdirSync(arg)
        .filter((name) => name.endsWith('.cpuprofile'))
        .map((name) => join(arg, name))
    : [arg],
);
if (files.length === 0) {
  console.error('usage: node bench/support/cpu-profile-summary.js <a.cpuprofile|dir> [...] [--top N]');
  process.exit(2);
}
console.log(JSON.stringify(files.map((file) => summarize(file, top))));
