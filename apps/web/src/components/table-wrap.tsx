import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways where the screen is narrower than it (a phone): a named region a
 * keyboard can focus, so it can be scrolled without a mouse too (axe: scrollable-region-focusable).
 */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
