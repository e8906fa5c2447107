import { z } from 'zod';

/**
 * `end-dates.sweep`: what end dates call for now — each warning before an end date that is due (a
 * ResourceStateChanged whose resource's `end_date_warnings` gained it), and a Terminate order for
 * each resource whose end date has come (its VM asked to stop first when it runs). Asked by the
 * sync-scheduler's leader only (one sweeper for the whole system), answered by the order service
 * over core NATS; no caller, and the NATS permissions allow no one else to ask. Idempotent: each
 * warning and each Terminate is written under the resource's row lock, so a repeated or concurrent
 * sweep does nothing twice.
 */
export const END_DATES_SWEEP_PATTERN = 'end-dates.sweep';

export const endDatesSweepRequestSchema = z.strictObject({});

export const endDatesSweepViewSchema = z.object({
  warned: z.number().int(),
  stopping: z.number().int(),
  terminated: z.number().int(),
});
export type EndDatesSweepView = z.infer<typeof endDatesSweepViewSchema>;
