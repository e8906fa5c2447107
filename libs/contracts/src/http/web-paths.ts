/**
 * The web portal's client routes (`apps/web`): the app's router shows a page for each, and the
 * gateway answers each with the app's `index.html`, so a reload or a shared link opens the page;
 * any other path outside the API stays a 404. Plain strings, no schema library: the browser bundle
 * imports this file.
 */
export const WEB_PATHS = {
  catalogue: '/',
  orderForm: '/order/:offering',
  orders: '/orders',
  order: '/orders/:uuid',
  resources: '/resources',
  vms: '/vms',
  vm: '/vms/:uuid',
  project: '/projects/:uuid',
  providerOrders: '/provider/orders',
  providerOfferings: '/provider/offerings',
  providerOffering: '/provider/offerings/:uuid',
} as const;

/** Whether a path is one of the portal's pages. */
export function isWebPath(path: string): boolean {
  return Object.values(WEB_PATHS).some((pattern) => match(pattern, path) !== undefined);
}

/** `/orders/:uuid` against a path: the named parts, decoded, or undefined when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(have[i]);
      } catch {
        return undefined;
      }
    } else if (part !== have[i]) return undefined;
  }
  return params;
}
