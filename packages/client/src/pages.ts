import type { ApiClient } from './client';
import type { paths } from './generated/api';

/** The paths whose GET answers a page of a list (a JSON array with X-Total-Count). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': unknown[] } } } } } ? P : never;
}[keyof paths];
type ListOperation<P extends ListPath> = paths[P]['get'];
export type ItemOf<P extends ListPath> = ListOperation<P>['responses'][200]['content']['application/json'][number];
/** The list's path and query parameters; page, count and cursor are the iterator's to set. */
export type ListParams<P extends ListPath> = {
  path?: ListOperation<P>['parameters']['path'];
  query?: Omit<NonNullable<ListOperation<P>['parameters']['query']>, 'page' | 'count' | 'cursor'>;
};

/** The cursor of a Link header's rel="next", if it has one. */
function nextCursor(link: string | null): string | undefined {
  const target = link === null ? undefined : /<([^>]*)>\s*;\s*rel="next"/.exec(link)?.[1];
  return target === undefined ? undefined : (new URL(target, 'http://service').searchParams.get('cursor') ?? undefined);
}

/**
 * Every item of a list, page after page (`count` at a time, at most 200), following each page's Link to the next:
 * each page costs the service the same however deep, and items created meanwhile shift no page.
 */
export async function* allItems<P extends ListPath>(client: ApiClient, path: P, params: ListParams<P> = {}, count = 200): AsyncGenerator<ItemOf<P>> {
  // openapi-fetch cannot relate a path generic to its operation; the types above state what the call sends and gets.
  const get = client.GET as unknown as (path: string, init: object) => Promise<{ data: ItemOf<P>[]; response: Response }>;
  let cursor: string | undefined;
  do {
    const { data, response } = await get(path, { params: { path: params.path, query: { ...params.query, count, ...(cursor ? { cursor } : {}) } } });
    yield* data;
    cursor = nextCursor(response.headers.get('link'));
  } while (cursor !== undefined);
}
