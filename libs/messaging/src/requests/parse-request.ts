import { validateRequest, type Validated } from '@app/contracts';

export type Parsed<T> = Validated<T>;

/**
 * Validates a request payload; a failure becomes a 400 whose `fields` name each bad field with its
 * rule, Waldur style (`{"field": ["message"]}`). The one rule set the gateway uses too, so a key such
 * as `__proto__` is reported, never a crash, whoever sends the request.
 */
export const parseRequest = validateRequest;
