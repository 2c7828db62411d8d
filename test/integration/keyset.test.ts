import crypto from 'node:crypto';
import { decodeCursor, encodeCursor, fetchKeysetPage, type KeysetColumn, type KeysetPage, type SortValue } from '../../src/database/keyset';
import { BadRequestError } from '../../src/errors/domain';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

interface Item {
  id: number;
  score: number;
  created_at: string;
}
type ItemColumn = 'id' | 'score' | 'created_at';
interface ItemKeysetColumn extends KeysetColumn {
  column: ItemColumn;
}

const ROW_COUNT = 250;
const PER_PAGE = 7;
const SCORE_THEN_ID_DESC: ItemKeysetColumn[] = [{ column: 'score', direction: 'desc', type: 'integer' }, { column: 'id', direction: 'desc', type: 'integer' }];
const CREATED_THEN_ID_ASC: ItemKeysetColumn[] = [{ column: 'created_at', direction: 'asc', type: 'string' }, { column: 'id', direction: 'asc', type: 'integer' }];
const SCORE_ASC_ID_DESC: ItemKeysetColumn[] = [{ column: 'score', direction: 'asc', type: 'integer' }, { column: 'id', direction: 'desc', type: 'integer' }];

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase({ migrate: false });
});
afterAll(() => db.destroy());

/** A fresh scratch table of its own for each test: scores and timestamps with many duplicates, ids in no relation to either. */
async function createItems(count = ROW_COUNT): Promise<string> {
  const table = `keyset_items_${crypto.randomBytes(4).toString('hex')}`;
  await db.knex.schema.createTable(table, (t) => {
    t.increments('id').primary();
    t.integer('score').notNullable();
    t.string('created_at', 20).notNullable();
  });
  const rows = Array.from({ length: count }, (_, i) => ({
    score: (i * 7919) % 13,
    created_at: `2026-01-0${(i * 31) % 9 + 1}T00:00:00Z`,
  }));
  if (rows.length > 0) await db.knex(table).insert(rows);
  return table;
}

function compareBy(columns: readonly ItemKeysetColumn[]): (a: Item, b: Item) => number {
  return (a, b) => {
    for (const { column, direction } of columns) {
      const x = a[column];
      const y = b[column];
      if (x === y) continue;
      const ascending = x < y ? -1 : 1;
      return direction === 'asc' ? ascending : -ascending;
    }
    return 0;
  };
}

async function allRows(table: string): Promise<Item[]> {
  return db.knex(table).select('id', 'score', 'created_at');
}

/** The list order, computed independently of the code under test. */
async function expectedIds(table: string, columns: readonly ItemKeysetColumn[]): Promise<number[]> {
  return (await allRows(table)).sort(compareBy(columns)).map((r) => r.id);
}

/** The table as one query, or, with `ranges`, as that many queries (ids by remainder) merged by fetchKeysetPage. */
let ranges = 1;
function fetchPage(table: string, columns: readonly ItemKeysetColumn[], cursor: { after?: string; before?: string; fromEnd?: boolean } = {}, perPage = PER_PAGE): Promise<KeysetPage<Item>> {
  const select = () => db.knex(table).select('id', 'score', 'created_at');
  const query = ranges === 1 ? select() : Array.from({ length: ranges }, (_, k) => select().whereRaw('id % ? = ?', [ranges, k]));
  return fetchKeysetPage<Item>(query, {
    list: table,
    columns,
    valuesOf: (row) => columns.map(({ column }): SortValue => row[column]),
    perPage,
    after: cursor.after,
    before: cursor.before,
    fromEnd: cursor.fromEnd,
  });
}

/** Follows `next` from the first page to the last; `between` runs after each fetch. */
async function pageForward(table: string, columns: readonly ItemKeysetColumn[], perPage = PER_PAGE, between?: (page: KeysetPage<Item>) => Promise<void>): Promise<KeysetPage<Item>[]> {
  const pages = [await fetchPage(table, columns, {}, perPage)];
  for (let page = pages[0]!; page.next !== undefined; ) {
    if (between) await between(page);
    page = await fetchPage(table, columns, { after: page.next }, perPage);
    pages.push(page);
    if (pages.length > ROW_COUNT) throw new Error('paging forward did not end');
  }
  return pages;
}

/** Follows `prev` from `start` to the first page; gives the pages in list order, `start` last. */
async function pageBackward(table: string, columns: readonly ItemKeysetColumn[], start: KeysetPage<Item>, perPage = PER_PAGE, between?: (page: KeysetPage<Item>) => Promise<void>): Promise<KeysetPage<Item>[]> {
  const pages = [start];
  for (let page = start; page.prev !== undefined; ) {
    if (between) await between(page);
    page = await fetchPage(table, columns, { before: page.prev }, perPage);
    pages.unshift(page);
    if (pages.length > ROW_COUNT) throw new Error('paging backward did not end');
  }
  return pages;
}

const idsOf = (pages: readonly KeysetPage<Item>[]) => pages.flatMap((p) => p.items.map((r) => r.id));
const sizesOf = (pages: readonly KeysetPage<Item>[]) => pages.map((p) => p.items.length);

describe('fetchKeysetPage', () => {
  it('when paging forward by score then id descending, shows every row exactly once, in order', async () => {
    const table = await createItems();
    const pages = await pageForward(table, SCORE_THEN_ID_DESC);
    expect(idsOf(pages)).toEqual(await expectedIds(table, SCORE_THEN_ID_DESC));
    // 250 = 35 × 7 + 5
    expect(sizesOf(pages)).toEqual([...Array<number>(35).fill(7), 5]);
    expect(pages[0]!.prev).toBeUndefined();
    expect(pages.slice(1).every((p) => p.prev !== undefined)).toBe(true);
  });

  it('when paging backward from the last page, shows every row exactly once, in order', async () => {
    const table = await createItems();
    const last = (await pageForward(table, SCORE_THEN_ID_DESC)).at(-1)!;
    expect(last.next).toBeUndefined();
    const pages = await pageBackward(table, SCORE_THEN_ID_DESC, last);
    expect(idsOf(pages)).toEqual(await expectedIds(table, SCORE_THEN_ID_DESC));
    expect(sizesOf(pages)).toEqual([...Array<number>(35).fill(7), 5]);
    expect(pages[0]!.prev).toBeUndefined();
    expect(pages.every((p) => p.next !== undefined || p === last)).toBe(true);
  });

  it('when a list is entered in the middle, prev leads back to the start and next on to the end', async () => {
    const table = await createItems();
    const expected = await expectedIds(table, SCORE_THEN_ID_DESC);
    const rows = (await allRows(table)).sort(compareBy(SCORE_THEN_ID_DESC));
    const hundredth = rows[99]!;
    const middle = await fetchPage(table, SCORE_THEN_ID_DESC, { after: encodeCursor(table, [hundredth.score, hundredth.id]) });
    expect(middle.items.map((r) => r.id)).toEqual(expected.slice(100, 100 + PER_PAGE));

    const before = await pageBackward(table, SCORE_THEN_ID_DESC, middle);
    // 100 rows precede the middle page: 14 pages of 7 and a first page of 2.
    expect(sizesOf(before)).toEqual([2, ...Array<number>(14).fill(7), 7]);
    let end = middle;
    const after: KeysetPage<Item>[] = [];
    while (end.next !== undefined) {
      end = await fetchPage(table, SCORE_THEN_ID_DESC, { after: end.next });
      after.push(end);
    }
    expect(idsOf([...before, ...after])).toEqual(expected);
  });

  it('when the row count is a multiple of the page size, ends on a full page without next, and starts on one without prev', async () => {
    const table = await createItems();
    const forward = await pageForward(table, SCORE_THEN_ID_DESC, 10);
    expect(sizesOf(forward)).toEqual(Array<number>(25).fill(10));
    expect(forward.at(-1)!.next).toBeUndefined();
    const backward = await pageBackward(table, SCORE_THEN_ID_DESC, forward.at(-1)!, 10);
    expect(sizesOf(backward)).toEqual(Array<number>(25).fill(10));
    expect(backward[0]!.prev).toBeUndefined();
    expect(idsOf(backward)).toEqual(await expectedIds(table, SCORE_THEN_ID_DESC));
  });

  it('when the list is empty, gives an empty page without cursors', async () => {
    const table = await createItems(0);
    expect(await fetchPage(table, SCORE_THEN_ID_DESC)).toEqual({ items: [], next: undefined, prev: undefined });
  });

  it('when the list fits one page, gives it without cursors', async () => {
    const table = await createItems(PER_PAGE);
    const page = await fetchPage(table, SCORE_THEN_ID_DESC);
    expect(page.items.map((r) => r.id)).toEqual(await expectedIds(table, SCORE_THEN_ID_DESC));
    expect(page.next).toBeUndefined();
    expect(page.prev).toBeUndefined();
  });

  it('when sorting by a timestamp string then id ascending, pages forward and backward in order', async () => {
    const table = await createItems();
    const expected = await expectedIds(table, CREATED_THEN_ID_ASC);
    const forward = await pageForward(table, CREATED_THEN_ID_ASC);
    expect(idsOf(forward)).toEqual(expected);
    expect(idsOf(await pageBackward(table, CREATED_THEN_ID_ASC, forward.at(-1)!))).toEqual(expected);
  });

  it('when the sort columns run in different directions, pages forward and backward in order', async () => {
    const table = await createItems();
    const expected = await expectedIds(table, SCORE_ASC_ID_DESC);
    const forward = await pageForward(table, SCORE_ASC_ID_DESC);
    expect(idsOf(forward)).toEqual(expected);
    expect(idsOf(await pageBackward(table, SCORE_ASC_ID_DESC, forward.at(-1)!))).toEqual(expected);
  });

  describe('when the list is given as several ranges, merged (an enterprise\'s organizations)', () => {
    beforeAll(() => { ranges = 3; });
    afterAll(() => { ranges = 1; });

    it.each([['score then id descending', SCORE_THEN_ID_DESC], ['a timestamp string then id ascending', CREATED_THEN_ID_ASC], ['columns in different directions', SCORE_ASC_ID_DESC]] as const)(
      'by %s, pages forward and backward through every row once, in the order of one query',
      async (_name, columns) => {
        const table = await createItems();
        const expected = await expectedIds(table, columns);
        const forward = await pageForward(table, columns);
        expect(idsOf(forward)).toEqual(expected);
        expect(sizesOf(forward)).toEqual([...Array<number>(35).fill(7), 5]);
        expect(idsOf(await pageBackward(table, columns, forward.at(-1)!))).toEqual(expected);
        const lastPage = await fetchPage(table, columns, { fromEnd: true });
        expect(lastPage.items.map((r) => r.id)).toEqual(expected.slice(-PER_PAGE));
        expect(lastPage.next).toBeUndefined();
      },
    );

    it('when a range holds nothing, the others still make the pages', async () => {
      const table = await createItems(20);
      await db.knex(table).whereRaw('id % 3 = 0').delete();
      expect(idsOf(await pageForward(table, SCORE_THEN_ID_DESC))).toEqual(await expectedIds(table, SCORE_THEN_ID_DESC));
    });
  });

  describe('when rows are inserted between page fetches', () => {
    // After each fetch, one row that sorts before the current position and one that sorts after it.
    // Keyset pages must neither skip nor repeat a row that was there at the start; the rows
    // inserted ahead of the position are seen, the ones behind it are not.
    async function pageWhileInserting(direction: 'forward' | 'backward') {
      const table = await createItems();
      const compare = compareBy(SCORE_THEN_ID_DESC);
      const initial = await expectedIds(table, SCORE_THEN_ID_DESC);
      const ahead: number[] = [];
      const behind: number[] = [];
      const insert = async (score: number) => {
        const [row] = await db.knex(table).insert({ score, created_at: '2026-02-01T00:00:00Z' }).returning('id');
        return (row as { id: number }).id;
      };
      const between = async (page: KeysetPage<Item>) => {
        // Moving forward the position is the last row shown, moving backward the first.
        const position = direction === 'forward' ? page.items.at(-1)! : page.items[0]!;
        const [higher, lower] = [await insert(position.score + 1), await insert(position.score - 1)];
        if (direction === 'forward') {
          behind.push(higher);
          ahead.push(lower);
        } else {
          ahead.push(higher);
          behind.push(lower);
        }
      };
      let pages: KeysetPage<Item>[];
      if (direction === 'forward') {
        pages = await pageForward(table, SCORE_THEN_ID_DESC, PER_PAGE, between);
      } else {
        const last = (await pageForward(table, SCORE_THEN_ID_DESC)).at(-1)!;
        pages = await pageBackward(table, SCORE_THEN_ID_DESC, last, PER_PAGE, between);
      }
      const rows = pages.flatMap((p) => p.items);
      const seen = rows.map((r) => r.id);
      return { initial, ahead, behind, rows, seen, compare };
    }

    it.each(['forward', 'backward'] as const)('paging %s, shows every original row once and keeps the order', async (direction) => {
      const { initial, ahead, behind, rows, seen, compare } = await pageWhileInserting(direction);
      expect(ahead.length).toBeGreaterThan(30);
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => initial.includes(id))).toEqual(initial);
      expect(seen.filter((id) => ahead.includes(id)).sort((a, b) => a - b)).toEqual(ahead);
      expect(seen.filter((id) => behind.includes(id))).toEqual([]);
      for (let i = 1; i < rows.length; i++) expect(compare(rows[i - 1]!, rows[i]!)).toBeLessThan(0);
    });
  });
});

describe('cursors', () => {
  const LIST = 'keyset_cursor_list';
  const base64url = (text: string) => Buffer.from(text).toString('base64url');

  const TWO_INTEGERS: KeysetColumn[] = [{ column: 'a', direction: 'desc', type: 'integer' }, { column: 'b', direction: 'desc', type: 'integer' }];

  it('when encoded and decoded for the same list, give back their values', () => {
    const values: SortValue[] = [42, 'octo-org', -1.5, ''];
    const columns: KeysetColumn[] = [
      { column: 'a', direction: 'asc', type: 'integer' }, { column: 'b', direction: 'asc', type: 'string' },
      { column: 'c', direction: 'asc', type: 'number' }, { column: 'd', direction: 'asc', type: 'string' },
    ];
    expect(decodeCursor(LIST, encodeCursor(LIST, values), columns)).toEqual(values);
  });

  it.each([
    ['a string for an integer column', ['abc', 1]],
    ['a fraction for an integer column', [2.5, 1]],
    ['an integer beyond 32 bits', [3000000000, 1]],
    ['a huge number', [1e300, 1]],
    ['null values', [null, null]],
  ])('when a well-formed cursor carries %s, throws BadRequestError before any SQL', (_name, values) => {
    expect(() => decodeCursor(LIST, encodeCursor(LIST, values as SortValue[]), TWO_INTEGERS)).toThrow(BadRequestError);
  });

  it('when a list is given a cursor of the right shape but wrong types, refuses it with BadRequestError', async () => {
    const table = await createItems(20);
    for (const values of [['abc', 1], [2, 'x'], [3000000000, 1]]) {
      await expect(fetchPage(table, SCORE_THEN_ID_DESC, { after: encodeCursor(table, values as SortValue[]) })).rejects.toBeInstanceOf(BadRequestError);
    }
  });

  it('are URL-safe', () => {
    expect(encodeCursor(LIST, ['a?b&c=d/e+f', 'ü', 999999])).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it.each([
    ['is base64 of text that is not JSON', base64url('this is not json')],
    ['is base64 of JSON that is not an object', base64url('[1,2]')],
    ['is base64 of JSON without a list name', base64url(JSON.stringify({ v: [1, 2] }))],
    ['is base64 of JSON whose values are not a list', base64url(JSON.stringify({ l: LIST, v: '1,2' }))],
    ['is base64 of JSON with an object among the values', base64url(JSON.stringify({ l: LIST, v: [{ gt: 1 }, 2] }))],
    ['is base64 of JSON with a boolean among the values', base64url(JSON.stringify({ l: LIST, v: [true, 2] }))],
    ['is base64 of JSON with an over-long value', base64url(JSON.stringify({ l: LIST, v: ['x'.repeat(513), 2] }))],
    ['is base64 of JSON null', base64url('null')],
    ['is a real cursor cut short', encodeCursor(LIST, [3, 17]).slice(0, -4)],
    ['is not base64 at all', 'not a cursor!'],
    ['is standard base64 with padding', Buffer.from(JSON.stringify({ l: LIST, v: [3, 17] })).toString('base64')],
    ['is empty', ''],
    ['belongs to another list', encodeCursor('another_list', [3, 17])],
    ['has too few values', encodeCursor(LIST, [3])],
    ['has too many values', encodeCursor(LIST, [3, 17, 'extra'])],
    ['has no values', encodeCursor(LIST, [])],
  ])('when the cursor %s, throws BadRequestError', (_name, cursor) => {
    expect(() => decodeCursor(LIST, cursor, TWO_INTEGERS)).toThrow(BadRequestError);
  });

  it('when the cursor is forged, a list refuses it as after and as before with BadRequestError', async () => {
    const table = await createItems(20);
    const forged = [
      base64url('{"l":"keyset_items","v":[1,2]'),
      'not base64!',
      encodeCursor('another_list', [3, 17]),
      encodeCursor(table, [3]),
      encodeCursor(table, [3, 17, 1]),
    ];
    for (const cursor of forged) {
      await expect(fetchPage(table, SCORE_THEN_ID_DESC, { after: cursor })).rejects.toBeInstanceOf(BadRequestError);
      await expect(fetchPage(table, SCORE_THEN_ID_DESC, { before: cursor })).rejects.toBeInstanceOf(BadRequestError);
    }
  });

  it('when both before and after are given, throws BadRequestError', async () => {
    const table = await createItems(20);
    const first = await fetchPage(table, SCORE_THEN_ID_DESC);
    const second = await fetchPage(table, SCORE_THEN_ID_DESC, { after: first.next! });
    expect(second.prev).toBeDefined();
    const both = fetchPage(table, SCORE_THEN_ID_DESC, { after: second.next!, before: second.prev! });
    await expect(both).rejects.toBeInstanceOf(BadRequestError);
    await expect(both).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
