/**
 * Waldur's pagination headers: `X-Result-Count` with the total, and `Link` with first, prev, next
 * and last pages (prev and next only where they exist), each the request's own URL with `page` set.
 */
export function lastPage(count: number, pageSize: number): number {
  return Math.max(1, Math.ceil(count / pageSize));
}

export function paginationHeaders(options: {
  /** The request URL without a query: `http://host/api/customers/`. */
  baseUrl: string;
  /** The request's own query, kept in every link except for `page`. */
  query: URLSearchParams;
  page: number;
  pageSize: number;
  count: number;
}): Record<string, string> {
  const { baseUrl, query, page, pageSize, count } = options;
  const last = lastPage(count, pageSize);
  const link = (target: number, rel: string) => {
    const params = new URLSearchParams(query);
    params.set('page', String(target));
    params.set('page_size', String(pageSize));
    return `<${baseUrl}?${params.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return { 'X-Result-Count': String(count), Link: links.join(', ') };
}
