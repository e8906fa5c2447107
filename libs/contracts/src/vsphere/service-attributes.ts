import { z } from 'zod';
import { messages, text } from '../identity/wire-fields';

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
    .max(500, messages.maxLength(500))
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

const looseBoolean = () =>
  z.preprocess((value) => parseLooseBoolean(value) ?? value, z.boolean({ error: messages.boolean }));

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** PEM certificate(s) of the CA to trust; `null` or "" clears it. */
const caPem = () =>
  z
    .string({ error: messages.string })
    .max(65_536, messages.maxLength(65_536))
    .refine((value) => value.trim() === '' || PEM_CERTIFICATE.test(value), {
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
    .min(1, messages.blank)
    .max(255, messages.maxLength(255))
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
  /** Verify vCenter's TLS certificate; off by default (vCenter is commonly self-signed). */
  verify_ssl: looseBoolean().optional(),
  /** The CA to trust when `verify_ssl` is on (otherwise the system's CAs). */
  ca_pem: caPem().optional(),
});

/** A partial update of the connection, as validated (URL normalised, verify_ssl a boolean). */
export type ServiceAttributes = z.output<typeof serviceAttributesSchema>;
