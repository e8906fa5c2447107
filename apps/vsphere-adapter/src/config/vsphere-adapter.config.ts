import { z } from 'zod';
import { ConfigError, env, loadConfig, metricsConfigShape, serviceConfigSchema } from '@app/platform';
import { parseAllowList } from '../integration/domain/address-policy';
import { parseCredentialKeys, type CredentialKey } from './credential-keys';

/**
 * `VCENTER_ALLOWED_NETWORKS`: the internal networks (CIDRs, addresses) and host names a vCenter
 * may be reached at, comma-separated. Unset or empty: Internet addresses only (loopback, private,
 * link-local, unique-local, the machine's own and the other special ranges are refused).
 */
const allowedNetworks = () =>
  z
    .string()
    .max(20_000, 'must be at most 20000 characters')
    .optional()
    .superRefine((raw, ctx) => {
      for (const problem of parseAllowList(raw).problems) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((raw) => parseAllowList(raw).list);

const schema = serviceConfigSchema({
  ...metricsConfigShape(9102),
  ORDER_CONCURRENCY: z.coerce.number({ error: 'must be a whole number' }).int().min(1).max(256).default(8),
  // vSphere integration (issue 9).
  VSPHERE_BASIC_MODE: env.flag(false),
  VSPHERE_SYNC_CONCURRENCY: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(64)
    .default(4),
  VSPHERE_SYNC_SWEEP_MS: env.milliseconds(30_000),
  VSPHERE_SYNC_TIMEOUT_MS: env.milliseconds(15 * 60_000),
  VSPHERE_CALL_TIMEOUT_MS: env.milliseconds(60_000),
  // Where a vCenter may be (issue 20): every connection is checked against this, and the time to
  // resolve, connect and shake hands is bounded on its own (a silent port answers like a closed one).
  VCENTER_ALLOWED_NETWORKS: allowedNetworks(),
  VCENTER_CONNECT_TIMEOUT_MS: env.milliseconds(10_000),
  // Orders (issue 14): the whole of one order's vCenter work (deploy, power-on, read back), which
  // vCenter 8 may take tens of minutes over for a large template. The OrderSubmitted consumer's
  // handler deadline is this plus a minute, so the order's own budget always fires first.
  VSPHERE_DEPLOY_TIMEOUT_MS: env.milliseconds(30 * 60_000),
  // Day-2 operations: how many run at once across VMs (one per VM at a time always), how often
  // other instances' work is looked for, how long a claim holds without renewal before another
  // instance takes the operation over, how long a guest shutdown or reboot may take to show.
  VM_OPERATION_CONCURRENCY: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(256)
    .default(8),
  VSPHERE_OPERATION_POLL_MS: env.milliseconds(1_000),
  VSPHERE_OPERATION_LEASE_MS: env.milliseconds(60_000),
  VSPHERE_GUEST_POWER_TIMEOUT_MS: env.milliseconds(10 * 60_000),
  // Drift: every managed VM read from vCenter this often per offering (0 turns it off). With the
  // live subscription on, this is reconciliation only: hourly.
  VSPHERE_VM_PULL_INTERVAL_MS: z.coerce
    .number({ error: 'must be a whole number of milliseconds' })
    .int()
    .min(0)
    .default(60 * 60_000),
  // VMs asked of vCenter per page of a pull (RetrievePropertiesEx maxObjects; vCenter may send
  // fewer): the pull compares and records a page before reading the next, so what it holds live
  // follows this, not the number of VMs (a bound the adapter's heap cap relies on).
  VSPHERE_VM_PULL_PAGE_SIZE: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(10_000)
    .default(500),
  // Push from vCenter (issue 23): one WaitForUpdatesEx subscription per offering's vCenter, held by
  // one instance (a lease looked for and checked every LEASE_CHECK_MS); each wait answers empty
  // after MAX_WAIT_SECONDS, with at most MAX_OBJECT_UPDATES VM updates per answer (a batch).
  VSPHERE_VM_WATCH: env.flag(true),
  VSPHERE_VM_WATCH_MAX_WAIT_SECONDS: z.coerce
    .number({ error: 'must be a whole number of seconds' })
    .int()
    .min(1)
    .max(3600)
    .default(30),
  VSPHERE_VM_WATCH_MAX_OBJECT_UPDATES: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(10_000)
    .default(500),
  VSPHERE_VM_WATCH_LEASE_CHECK_MS: env.milliseconds(2_000),
  // Usage statistics: how long one QueryPerf answer of a VM and period serves every caller.
  VSPHERE_STATS_CACHE_MS: env.milliseconds(5_000),
});

export type VsphereAdapterConfig = z.infer<typeof schema> & {
  /** `CREDENTIALS_KEYS` (kept out of the schema: a bad value must never be echoed in the error). */
  CREDENTIALS_KEYS: CredentialKey[];
};

export function loadVsphereAdapterConfig(
  source: Record<string, string | undefined> = process.env,
): VsphereAdapterConfig {
  const { CREDENTIALS_KEYS: rawKeys, ...rest } = source;
  const keys = parseCredentialKeys(rawKeys);
  const problems = keys.problems.map((problem) => `CREDENTIALS_KEYS (set, not shown): ${problem}`);
  let base: z.infer<typeof schema> | undefined;
  try {
    base = loadConfig(schema, rest);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.unshift(...error.problems);
  }
  if (problems.length > 0 || base === undefined) throw new ConfigError(problems);
  return { ...base, CREDENTIALS_KEYS: keys.keys };
}

export const VSPHERE_SCHEMA = 'vsphere';
export const CONFIG = Symbol('VsphereAdapterConfig');
