import { randomBytes } from 'node:crypto';

/**
 * vCenter documents its one-time console tickets as expiring 30 minutes after they are made when
 * unused (vSphere Automation API, `POST /api/vcenter/vm/{vm}/console/tickets`); no other figure is
 * documented for `VirtualMachine.AcquireTicket`. Tests shorten it with `consoleTicketLifetime(ms)`.
 */
export const CONSOLE_TICKET_LIFETIME_MS = 30 * 60_000;

/** What became of a ticket presented at the console endpoint. */
export type Redemption = 'accepted' | 'used' | 'expired' | 'unknown';

interface Issued {
  readonly vm: string;
  readonly expiresAt: number;
  used: boolean;
}

/**
 * The VM console tickets the front issued in vCenter's place: each opens one console of one VM,
 * once, before it expires. All are kept for the front's life (a test's few): a used or expired
 * ticket stays known, to be refused as such. `now` is injected so the rules are checked without waiting.
 */
export class ConsoleTicketLedger {
  private readonly tickets = new Map<string, Issued>();
  lifetimeMs = CONSOLE_TICKET_LIFETIME_MS;

  constructor(private readonly now: () => number = Date.now) {}

  /** A new random ticket for `vm` (vCenter's are opaque strings too). */
  issue(vm: string): string {
    const ticket = randomBytes(24).toString('hex');
    this.tickets.set(ticket, { vm, expiresAt: this.now() + this.lifetimeMs, used: false });
    return ticket;
  }

  /** The console endpoint's check: the first use within the lifetime is accepted, any other refused. */
  redeem(ticket: string): Redemption {
    const issued = this.tickets.get(ticket);
    if (issued === undefined) return 'unknown';
    if (issued.used) return 'used';
    if (this.now() >= issued.expiresAt) return 'expired';
    issued.used = true;
    return 'accepted';
  }

  /** Whether `ticket` is a console ticket the front issued (used or not): it is never a session. */
  isConsoleTicket(ticket: string): boolean {
    return this.tickets.has(ticket);
  }
}
