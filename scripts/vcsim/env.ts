// Environment reading for the local scripts (front, template publisher, demo registration): each
// stops with a message naming the variable, never showing a value (some hold passwords or tokens).

/** The variable's value; throws naming it when it is unset or empty. */
export function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
}

/** The variable's value, or `fallback` when it is unset or empty. */
export function optional(name: string, fallback: string): string {
  const value = process.env[name];
  return value === undefined || value === '' ? fallback : value;
}

/** `host:port` (port 0: any free one) from the variable, or from `fallback`. */
export function hostPort(name: string, fallback: string): { host: string; port: number } {
  const value = optional(name, fallback);
  const match = /^(.*):(\d{1,5})$/.exec(value);
  const port = match === null ? NaN : Number(match[2]);
  if (match === null || match[1] === '' || port > 65_535)
    throw new Error(`${name} must be host:port (e.g. 127.0.0.1:8990), not "${value}"`);
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/** A whole number of milliseconds ≥ 1 from the variable, or `fallback`. */
export function milliseconds(name: string, fallback: number): number {
  const value = optional(name, String(fallback));
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`${name} must be a whole number of ms ≥ 1`);
  return parsed;
}
