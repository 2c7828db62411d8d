import { BadRequestError } from '../../src/errors/domain';
import { carriedCursors, decodeCarriedCursor, isCarriedCursor } from '../../src/modules/advisories/advisories.cursors';
import { affectedPackageOf } from '../../src/modules/advisories/advisories.schemas';
import { parseTimeFilter } from '../../src/modules/advisories/time-filter';

// The pure parts of the global advisory list's query: date filters, `affects` values, and the
// cursors that carry a query too long to repeat in Link URLs.

describe('parseTimeFilter', () => {
  it.each([
    ['2024-03-01', { from: '2024-03-01T00:00:00Z', until: '2024-03-02T00:00:00Z' }],
    ['>=2024-03-01', { from: '2024-03-01T00:00:00Z' }],
    ['>2024-03-01', { from: '2024-03-02T00:00:00Z' }],
    ['<=2024-03-01', { until: '2024-03-02T00:00:00Z' }],
    ['<2024-03-01', { until: '2024-03-01T00:00:00Z' }],
    ['2024-02-28..2024-03-01', { from: '2024-02-28T00:00:00Z', until: '2024-03-02T00:00:00Z' }],
    ['*..2024-12-31', { until: '2025-01-01T00:00:00Z' }],
    ['2024-12-31..*', { from: '2024-12-31T00:00:00Z' }],
    ['>=2024-03-01T12:30:00+02:00', { from: '2024-03-01T10:30:00Z' }],
    ['2024-03-01T10:30:15.250Z', { from: '2024-03-01T10:30:15Z', until: '2024-03-01T10:30:16Z' }],
  ])('%s is %j', (text, range) => {
    expect(parseTimeFilter(text)).toEqual(range);
  });

  it.each(['', '2024-02-30', '2024-13-01', 'yesterday', '*..*', '2024-03-02..2024-03-01', '>=', '2024-03-01..', '20240301'])('refuses %j', (text) => {
    expect(parseTimeFilter(text)).toBeUndefined();
  });
});

describe('affectedPackageOf', () => {
  it.each([
    ['lodash', { name: 'lodash', version: null }],
    ['lodash@4.17.21', { name: 'lodash', version: '4.17.21' }],
    ['@types/node', { name: '@types/node', version: null }],
    ['@types/node@20.1.0', { name: '@types/node', version: '20.1.0' }],
    ['org.apache.logging.log4j:log4j-core@2.14.1', { name: 'org.apache.logging.log4j:log4j-core', version: '2.14.1' }],
    ['lodash@', { name: 'lodash', version: '' }],
  ])('%s', (text, expected) => {
    expect(affectedPackageOf(text)).toEqual(expected);
  });
});

describe('carried cursors', () => {
  const query = { ecosystem: 'npm', affects: Array.from({ length: 1000 }, (_, i) => `package-${i}@1.0.${i % 10}`).join(','), sort: 'updated' };

  it('carry the filters and the position, and share one compressed copy of the filters', () => {
    const carry = carriedCursors(query);
    const [next, first] = [carry('eyJsIjoiYSJ9'), carry(null)];
    expect([isCarriedCursor(next), isCarriedCursor(first), isCarriedCursor('eyJsIjoiYSJ9')]).toEqual([true, true, false]);
    expect(decodeCarriedCursor(next)).toEqual({ query, position: 'eyJsIjoiYSJ9' });
    expect(decodeCarriedCursor(first)).toEqual({ query, position: null });
    expect(next.length).toBeLessThan(query.affects.length / 3);
  });

  it.each(['q', 'qAAAA', 'q!!.x', 'qAAAA.bbb.ccc', `q${Buffer.from('{}').toString('base64url')}.`])('refuse %j with a 400', (cursor) => {
    expect(() => decodeCarriedCursor(cursor)).toThrow(BadRequestError);
  });
});
