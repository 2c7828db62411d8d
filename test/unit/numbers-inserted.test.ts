import { NumbersInserted } from '../../src/modules/world/numbers-inserted';

// The loader skips looking up a batch of alerts none of whose numbers it wrote before: a number
// it did write must never be reported absent, whatever the repository or the number's size.

it('holds every number added, per repository, and no other below its limit', () => {
  const inserted = new NumbersInserted();
  const added = [[1, 1], [1, 8], [1, 9], [1, 4_000], [2, 7], [3, 1_048_576]] as const;
  for (const [repo, number] of added) inserted.add(repo, number);
  for (const [repo, number] of added) expect(inserted.mayHold(repo, number)).toBe(true);
  for (const [repo, number] of [[1, 2], [1, 3_999], [1, 4_001], [1, 100_000], [2, 1], [2, 8], [4, 1], [3, 1_048_575]]) expect(inserted.mayHold(repo!, number!)).toBe(false);
});

it('answers "may hold" for numbers too large to keep a bit for', () => {
  const inserted = new NumbersInserted();
  inserted.add(1, 2 ** 31 - 1);
  expect(inserted.mayHold(1, 2 ** 31 - 1)).toBe(true);
  expect(inserted.mayHold(5, 1_048_577)).toBe(true);
});
