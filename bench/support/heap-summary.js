// node bench/support/heap-summary.js <a.heapsnapshot> [<b.heapsnapshot>] [--top N]
// What a V8 heap snapshot holds, summed by constructor (objects) or by kind (strings, arrays,
// code, ...): self sizes and counts; with two snapshots, what the second holds more than the first.
// The evidence for what a process's heap grew by (`--heapsnapshot-signal`, bench/support/heap-snapshot.ts).
const { readFileSync } = require('node:fs');

function summarize(path) {
  const snapshot = JSON.parse(readFileSync(path, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const fields = meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const types = meta.node_types[typeAt];
  const { nodes, strings } = snapshot;
  const groups = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]];
    const size = nodes[i + sizeAt];
    // Objects by their constructor; everything else by its kind (every string's name is its text).
    const key =
      type === 'object' || type === 'native' ? `${type}:${strings[nodes[i + nameAt]]}` : `(${type})`;
    const group = groups.get(key) ?? { size: 0, count: 0 };
    group.size += size;
    group.count += 1;
    groups.set(key, group);
    total += size;
  }
  return { groups, total, nodes: nodes.length / width };
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 25;
const [first, second] = args.map(summarize);
const MB = 1024 * 1024;
const mb = (bytes) => (bytes / MB).toFixed(2);
if (second === undefined) {
  console.log(`total ${mb(first.total)} MB in ${first.nodes} nodes`);
  for (const [key, g] of [...first.groups].sort((a, b) => b[1].size - a[1].size).slice(0, top))
    console.log(`${mb(g.size).padStart(9)} MB ${String(g.count).padStart(9)}  ${key}`);
} else {
  console.log(
    `total ${mb(first.total)} -> ${mb(second.total)} MB (${mb(second.total - first.total)} MB more)`,
  );
  const keys = new Set([...first.groups.keys(), ...second.groups.keys()]);
  const rows = [...keys].map((key) => {
    const a = first.groups.get(key) ?? { size: 0, count: 0 };
    const b = second.groups.get(key) ?? { size: 0, count: 0 };
    return { key, size: b.size - a.size, count: b.count - a.count, after: b.size };
  });
  for (const r of rows.sort((x, y) => y.size - x.size).slice(0, top))
    console.log(
      `${mb(r.size).padStart(9)} MB ${String(r.count).padStart(9)}  ${r.key} (${mb(r.after)} MB in all)`,
    );
}
