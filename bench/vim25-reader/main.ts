/**
 * Our side of the govmomi comparison in `npm run bench -- vim25`, run as a BUILT process (plain
 * JavaScript compiled into .cache/vim25-reader by the bench, no TypeScript compiler loaded), so
 * that its memory is the client's own. The twin of bench/govmomi-reader/main.go: it logs in once,
 * then does one timed `readVirtualMachines` per non-blank line read on stdin and prints one JSON line per
 * read: {"vms":550,"devices":7150,"seconds":0.3,"wire_seconds":0.2,"rss_growth_mb":40.1}.
 * wire_seconds: the time spent waiting for vcsim's answers (request sent → body read); the rest
 * of `seconds` is decoding and mapping.
 *
 * rss_growth_mb: the peak RSS during the read (VmHWM, reset through /proc/self/clear_refs just
 * before it) less the RSS before it, i.e. what the read itself adds to the process.
 *
 * Usage: node main.js --url https://host:port --ca ca.pem [--user u --pass p]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { readVirtualMachines } from '../../libs/vim25/src/inventory/vm-readers';
import { VimSession } from '../../libs/vim25/src/session/vim-session';
import { SoapTransport, type SoapCaller, type SoapReply } from '../../libs/vim25/src/soap/soap-transport';
import type { VimContext } from '../../libs/vim25/src/types/vim-context';

function procStatusKb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** The SOAP transport, timing each request until its body is read. */
class TimedTransport extends SoapTransport {
  wireSeconds = 0;

  override async call(...args: Parameters<SoapCaller['call']>): Promise<SoapReply> {
    const start = process.hrtime.bigint();
    try {
      return await super.call(...args);
    } finally {
      this.wireSeconds += Number(process.hrtime.bigint() - start) / 1e9;
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      ca: { type: 'string' },
      user: { type: 'string', default: 'user' },
      pass: { type: 'string', default: 'pass' },
    },
  });
  if (values.url === undefined) throw new Error('--url is required');
  const options = {
    url: values.url,
    caPem: values.ca === undefined ? undefined : readFileSync(values.ca, 'utf8'),
    username: values.user,
    password: values.pass,
    keepAliveMs: 0,
  };
  const transport = new TimedTransport(options);
  const session = new VimSession(options, transport);
  try {
    const ctx: VimContext = {
      caller: session,
      content: await session.serviceContent(),
      serverAddress: session.transport.sdkUrl.host,
    };
    await session.ensureLoggedIn();
    for await (const command of createInterface({ input: process.stdin })) {
      if (command.trim() === '') continue; // any other line asks for one read
      transport.wireSeconds = 0;
      const before = procStatusKb('VmRSS');
      writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
      const start = process.hrtime.bigint();
      const vms = await readVirtualMachines(ctx);
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const rssGrowthMb = (procStatusKb('VmHWM') - before) / 1024;
      const devices = vms.reduce((n, vm) => n + vm.devices.length, 0);
      process.stdout.write(
        `${JSON.stringify({
          vms: vms.length,
          devices,
          seconds,
          wire_seconds: transport.wireSeconds,
          rss_mb: before / 1024,
          rss_growth_mb: rssGrowthMb,
        })}\n`,
      );
    }
  } finally {
    await session.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
