/** A unique constraint refused the write: the row already exists. Repositories throw it in place of the driver's error. */
export class DuplicateRowError extends Error {
  constructor(readonly constraint: string | undefined) {
    super(`duplicate row${constraint ? ` (${constraint})` : ''}`);
    this.name = 'DuplicateRowError';
  }
}

/** A foreign key refused the write: a referenced row is missing, or a row still referenced was deleted. */
export class ReferencedRowError extends Error {
  constructor(readonly constraint: string | undefined) {
    super(`foreign key violation${constraint ? ` (${constraint})` : ''}`);
    this.name = 'ReferencedRowError';
  }
}
