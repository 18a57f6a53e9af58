// The lists' paging arithmetic: which rows a page reads, and what it says about where they stand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listPage, NEWEST_FIRST, pageRange, pageWindow, parseSort } from './paging.ts';

test('page n of 20 reads rows 20(n-1) onwards, 20 of them', () => {
  assert.deepEqual(pageRange(1, 20), { skip: 0, take: 20 });
  assert.deepEqual(pageRange(3, 20), { skip: 40, take: 20 });
});

test('a page says which rows it shows and how many pages there are; an empty list or a page past the last shows none', () => {
  assert.deepEqual(pageWindow(2, 20, 45, 20), { pageCount: 3, first: 21, last: 40 });
  assert.deepEqual(pageWindow(3, 20, 45, 5), { pageCount: 3, first: 41, last: 45 });
  assert.deepEqual(pageWindow(1, 20, 0, 0), { pageCount: 1, first: 0, last: 0 });
  assert.deepEqual(pageWindow(4, 20, 45, 0), { pageCount: 3, first: 0, last: 0 });
});

test('a sort from the query string: a known column, `-` before it for descending; anything else is the default', () => {
  const columns = ['name', 'createdAt'] as const;
  const fallback = { column: 'createdAt', direction: 'desc' } as const;
  assert.deepEqual(parseSort('name', columns, fallback), { column: 'name', direction: 'asc' });
  assert.deepEqual(parseSort('-name', columns, fallback), { column: 'name', direction: 'desc' });
  for (const odd of [undefined, '', '-', 'secretHash', '--name', ['name']]) assert.deepEqual(parseSort(odd, columns, fallback), fallback, String(odd));
});

test('a list page searches the page its query string asks for (the search trimmed, none when empty) and says where its rows stand', async () => {
  const list = { perPage: 20, columns: ['name', 'createdAt'] as const, defaultSort: NEWEST_FIRST };
  const asked: unknown[] = [];
  const search = async (range: unknown) => {
    asked.push(range);
    return { rows: ['a', 'b', 'c', 'd', 'e'], total: 45 };
  };
  assert.deepEqual(await listPage({ q: ' ann ', page: '3', sort: '-name' }, list, search), {
    rows: ['a', 'b', 'c', 'd', 'e'],
    sort: { column: 'name', direction: 'desc' },
    query: 'ann',
    page: 3,
    pageCount: 3,
    total: 45,
    first: 41,
    last: 45,
  });
  await listPage({ page: 'x', sort: 'secretHash' }, list, search);
  assert.deepEqual(asked, [
    { query: 'ann', skip: 40, take: 20, sort: { column: 'name', direction: 'desc' } },
    { query: undefined, skip: 0, take: 20, sort: NEWEST_FIRST },
  ]);
});
