import { lastPage, paginationHeaders } from './pagination';

describe('pagination headers', () => {
  const base = 'http://gw:8080/api/customers/';

  it('names first, prev, next and last pages and keeps the filters', () => {
    const headers = paginationHeaders({
      baseUrl: base,
      query: new URLSearchParams('name=acme&page=2&page_size=10'),
      page: 2,
      pageSize: 10,
      count: 35,
    });
    expect(headers['X-Result-Count']).toBe('35');
    expect(headers.Link).toBe(
      [
        `<${base}?name=acme&page=1&page_size=10>; rel="first"`,
        `<${base}?name=acme&page=1&page_size=10>; rel="prev"`,
        `<${base}?name=acme&page=3&page_size=10>; rel="next"`,
        `<${base}?name=acme&page=4&page_size=10>; rel="last"`,
      ].join(', '),
    );
  });

  it('has no prev on the first page and no next on the last', () => {
    const first = paginationHeaders({
      baseUrl: base,
      query: new URLSearchParams(),
      page: 1,
      pageSize: 10,
      count: 5,
    }).Link;
    expect(first).toBe(
      `<${base}?page=1&page_size=10>; rel="first", <${base}?page=1&page_size=10>; rel="last"`,
    );
  });

  it('an empty list still has one page', () => {
    expect([lastPage(0, 10), lastPage(10, 10), lastPage(11, 10)]).toEqual([1, 1, 2]);
  });
});
