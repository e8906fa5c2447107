import { z } from 'zod';
import { maxLengthFirst, messages, text } from '../identity/wire-fields';

/**
 * The offering's vCenter connection as Waldur's `service_attributes` name it
 * (`POST /api/marketplace-provider-offerings/{uuid}/update_integration/`). Every field is optional:
 * the portal saves them one at a time. The maximums are MiB (RAM, disk) or counts (CPU), ints ≥ 1;
 * `null` clears one (that dimension is then unlimited).
 */

const TRUE_WORDS = ['true', 'yes', '1', 'on'];
const FALSE_WORDS = ['false', 'no', '0', 'off'];

/**
 * Waldur's reading of `verify_ssl`: a boolean, or one of "true/yes/1/on" (true) and
 * "false/no/0/off" (false), any case, surrounding blanks ignored; the numbers 1 and 0 too.
 * Anything else: undefined (not a boolean). Pure.
 */
export function parseLooseBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  return undefined;
}

/**
 * Why `value` is not a vCenter address, or undefined when it is one: `https://host[:port]`, no
 * user info, path, query or fragment (the clients add `/sdk` and `/api`). Pure.
 */
export function backendUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'Enter a valid URL.';
  }
  if (url.protocol !== 'https:') return 'Enter a valid URL starting with https://.';
  if (url.hostname === '') return 'Enter a valid URL.';
  if (url.username !== '' || url.password !== '')
    return 'Give the user name and password in their own fields, not in the URL.';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '')
    return 'Give only the scheme, host and port, e.g. https://vcenter.example.org:8443.';
  return undefined;
}

/** `https://Host:443/` → `https://host`: the form the adapter stores and connects to. Pure. */
export function normaliseBackendUrl(value: string): string {
  return new URL(value.trim()).origin;
}

const backendUrl = () =>
  z
    .string({ error: messages.string })
    .max(500, maxLengthFirst(500))
    .superRefine((value, ctx) => {
      const problem = backendUrlProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform(normaliseBackendUrl);

const MAX_INT = 2_147_483_647;

/** An int ≥ 1 (a JSON number or a string of digits, as Django's IntegerField takes), or null. */
const maximum = () =>
  z
    .preprocess(
      (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
      z
        .number({ error: messages.integer })
        .int(messages.integer)
        .min(1, messages.minValue(1))
        .max(MAX_INT, messages.maxValue(MAX_INT)),
    )
    .nullable();

/** A whole number in [min, max] (a JSON number or a string of digits). */
const bounded = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: messages.integer })
      .int(messages.integer)
      .min(min, messages.minValue(min))
      .max(max, messages.maxValue(max)),
  );

const looseBoolean = () =>
  z.preprocess((value) => parseLooseBoolean(value) ?? value, z.boolean({ error: messages.boolean }));

const PEM_BEGIN = '-----BEGIN CERTIFICATE-----';
const PEM_END = '-----END CERTIFICATE-----';
const CA_PEM_MAX = 65_536;

/**
 * The `-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----` blocks of a PEM bundle, in order,
 * found by plain string search: one pass over the text whatever it holds (a lazy pattern over a
 * body of many BEGIN lines without an END is quadratic). Pure.
 */
export function pemCertificateBlocks(pem: string): string[] {
  const blocks: string[] = [];
  for (let from = pem.indexOf(PEM_BEGIN); from !== -1;) {
    const end = pem.indexOf(PEM_END, from + PEM_BEGIN.length + 1);
    if (end === -1) break;
    blocks.push(pem.slice(from, end + PEM_END.length));
    from = pem.indexOf(PEM_BEGIN, end + PEM_END.length);
  }
  return blocks;
}

/** PEM certificate(s) of the CA to trust; `null` or "" clears it. */
const caPem = () =>
  z
    .string({ error: messages.string })
    .max(CA_PEM_MAX, maxLengthFirst(CA_PEM_MAX))
    .refine((value) => value.trim() === '' || pemCertificateBlocks(value).length > 0, {
      message: 'Enter one or more PEM certificates (-----BEGIN CERTIFICATE----- ...).',
    })
    .transform((value) => (value.trim() === '' ? null : value.trim()))
    .nullable();

export const serviceAttributesSchema = z.strictObject({
  /** vCenter's address: `https://vcenter.example.org`, a non-default port allowed. */
  backend_url: backendUrl().optional(),
  /** The service account, e.g. `waldur@vsphere.local`. */
  username: text(255).optional(),
  /** Its password: stored encrypted by the adapter, never returned, logged or published. */
  password: z
    .string({ error: messages.string })
    .max(255, maxLengthFirst(255))
    .min(1, messages.blank)
    .optional(),
  /** Name of the cluster new VMs go to when the organisation has none assigned; "" clears it. */
  default_cluster_label: text(255, { blank: true }).optional(),
  max_cpu: maximum().optional(),
  /** MiB. */
  max_ram: maximum().optional(),
  /** MiB, per disk. */
  max_disk: maximum().optional(),
  /** MiB, all disks of a VM together. */
  max_disk_total: maximum().optional(),
  max_cores_per_socket: maximum().optional(),
  /** Snapshots a VM may have at once (default 3; 0 turns snapshots off; vCenter's chain limit is 32). */
  max_snapshots: bounded(0, 32).optional(),
  /** Hours after which a snapshot is flagged as too old (default 72, vCenter's best-practice figure). */
  snapshot_max_age_hours: bounded(1, 8760).optional(),
  /** Whether snapshots may include the VM's memory (default true). */
  memory_snapshots: looseBoolean().optional(),
  /**
   * Verify vCenter's TLS certificate; on by default (with `ca_pem` for a self-signed vCenter).
   * Turning it off is the provider's explicit choice, and the integration view warns of it.
   */
  verify_ssl: looseBoolean().optional(),
  /** The CA to trust when `verify_ssl` is on (otherwise the system's CAs). */
  ca_pem: caPem().optional(),
});

/** A partial update of the connection, as validated (URL normalised, verify_ssl a boolean). */
export type ServiceAttributes = z.output<typeof serviceAttributesSchema>;
