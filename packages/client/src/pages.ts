import type { ApiClient } from './client';
import type { paths } from './generated/api';

/** The paths whose GET answers a page of a list (a JSON array with X-Total-Count). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': unknown[] } } } } } ? P : never;
}[keyof paths];
type ListOperation<P extends ListPath> = paths[P]['get'];
export type ItemOf<P extends ListPath> = ListOperation<P>['responses'][200]['content']['application/json'][number];
/** The list's path and query parameters; page and count are the iterator's to set. */
export type ListParams<P extends ListPath> = {
  path?: ListOperation<P>['parameters']['path'];
  query?: Omit<NonNullable<ListOperation<P>['parameters']['query']>, 'page' | 'count'>;
};

/** Every item of a list, page after page (`count` at a time, at most 200), until X-Total-Count items have come. */
export async function* allItems<P extends ListPath>(client: ApiClient, path: P, params: ListParams<P> = {}, count = 200): AsyncGenerator<ItemOf<P>> {
  let seen = 0;
  for (let page = 1; ; page++) {
    // openapi-fetch cannot relate a path generic to its operation; the types above state what the call sends and gets.
    const get = client.GET as unknown as (path: string, init: object) => Promise<{ data: ItemOf<P>[]; response: Response }>;
    const { data, response } = await get(path, { params: { path: params.path, query: { ...params.query, page, count } } });
    yield* data;
    seen += data.length;
    if (data.length === 0 || seen >= Number(response.headers.get('x-total-count'))) return;
  }
}
