/**
 * Tickets for a sequence of requests whose answers replace one another (the order form's dry run):
 * each new request takes a ticket, and only the newest ticket's answer may reach the page. On a
 * slow link answers arrive late or out of order; an older one landing last must not overwrite the
 * answer to what the user typed since.
 */
export class LatestAnswer {
  private issued = 0;

  /** A ticket for a new request; every ticket issued before it is stale from now on. */
  next(): number {
    this.issued += 1;
    return this.issued;
  }

  /** Makes every ticket issued so far stale (the input changed, or the form was sent). */
  invalidate(): void {
    this.issued += 1;
  }

  /** Whether an answer to this ticket's request may still be shown. */
  isLatest(ticket: number): boolean {
    return ticket === this.issued;
  }
}
