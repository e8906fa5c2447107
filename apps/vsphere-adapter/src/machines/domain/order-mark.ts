/**
 * The mark a VM carries in its annotation from the moment vCenter creates it (the deploy spec's
 * `description` becomes the annotation), so that a redelivered order, a deploy that timed out on our
 * side, or an adapter killed mid-deploy finds the VM this order already made instead of making a
 * second one. Pure.
 */
export function orderMark(orderUuid: string): string {
  return `marketplace-order:${orderUuid}`;
}

/** The VM's description: the user's, then the mark on a line of its own. Pure. */
export function describedWithMark(description: string, orderUuid: string): string {
  const mark = orderMark(orderUuid);
  return description.trim() === '' ? mark : `${description.trim()}\n${mark}`;
}
