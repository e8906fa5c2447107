/**
 * One line from an error body as Waldur writes it: `{"detail": "..."}`, or field messages
 * `{"cluster": ["This cluster is not available for this customer."]}` (nested for attributes).
 */
export function apiErrorMessage(status: number, body: unknown): string {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const detail = (body as { detail?: unknown }).detail;
    if (typeof detail === 'string') return `${status}: ${detail}`;
    const parts = fieldMessages(body as Record<string, unknown>, '');
    if (parts.length > 0) return `${status}: ${parts.join('; ')}`;
  }
  if (typeof body === 'string' && body.trim() !== '') return `${status}: ${body.trim().slice(0, 500)}`;
  return `${status}: the API refused the request`;
}

function fieldMessages(body: Record<string, unknown>, prefix: string): string[] {
  return Object.entries(body).flatMap(([key, value]) => {
    const field = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') return [`${field}: ${value}`];
    if (Array.isArray(value)) {
      const texts = value.filter((item): item is string => typeof item === 'string');
      return texts.length > 0 ? [`${field}: ${texts.join(' ')}`] : [];
    }
    if (value && typeof value === 'object') return fieldMessages(value as Record<string, unknown>, field);
    return [];
  });
}
