import { ValidationError } from '../../src/errors/domain';
import { MAX_PHRASE_LENGTH, PHRASE_QUALIFIERS, parsePhrase } from '../../src/modules/audit-log/audit-phrase';

// The audit log's search phrase (issue 37): each qualifier, negation, quoting, the forms of
// `created:`, and every malformed phrase refused with a 422 that names `phrase` and the problem.

const DAY = 24 * 60 * 60 * 1000;
const NOV_1 = Date.UTC(2026, 10, 1);

function refusal(phrase: string): string {
  try {
    parsePhrase(phrase);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const { errors, message } = error as ValidationError;
    expect(errors).toEqual([expect.objectContaining({ field: 'phrase', code: 'invalid' })]);
    return message;
  }
  throw new Error(`accepted: ${phrase}`);
}

describe('terms', () => {
  it('reads no phrase, and an empty or blank one, as no terms', () => {
    expect(parsePhrase(undefined)).toEqual([]);
    expect(parsePhrase('')).toEqual([]);
    expect(parsePhrase('   ')).toEqual([]);
  });

  it('reads each name qualifier as an exact value, several terms ANDed in order', () => {
    expect(parsePhrase('actor:alice user:bob team:acme-corp/platform repo:acme-corp/api org:acme-corp')).toEqual([
      { qualifier: 'actor', negated: false, value: 'alice' },
      { qualifier: 'user', negated: false, value: 'bob' },
      { qualifier: 'team', negated: false, value: 'acme-corp/platform' },
      { qualifier: 'repo', negated: false, value: 'acme-corp/api' },
      { qualifier: 'org', negated: false, value: 'acme-corp' },
    ]);
  });

  it('reads an action with a verb as exact and a category alone as a prefix, in lower case', () => {
    expect(parsePhrase('action:Organization_Role.assign_team action:hook')).toEqual([
      { qualifier: 'action', negated: false, value: 'organization_role.assign_team', prefix: false },
      { qualifier: 'action', negated: false, value: 'hook', prefix: true },
    ]);
  });

  it('negates a term with a leading -', () => {
    expect(parsePhrase('-action:dependency_alert -actor:dependency-bot[bot]')).toEqual([
      { qualifier: 'action', negated: true, value: 'dependency_alert', prefix: true },
      { qualifier: 'actor', negated: true, value: 'dependency-bot[bot]' },
    ]);
  });

  it('takes a value with spaces in double quotes, and qualifiers in any case', () => {
    expect(parsePhrase('ACTOR:"orgsec-cli (root)" operation:Remove')).toEqual([
      { qualifier: 'actor', negated: false, value: 'orgsec-cli (root)' },
      { qualifier: 'operation', negated: false, value: 'remove' },
    ]);
  });

  it('knows every qualifier it documents', () => {
    expect([...PHRASE_QUALIFIERS].sort()).toEqual(['action', 'actor', 'created', 'operation', 'org', 'repo', 'team', 'user']);
  });
});

describe('created:', () => {
  const range = (phrase: string) => (parsePhrase(phrase)[0] as { range: unknown }).range;

  it('reads a date as that whole UTC day', () => {
    expect(range('created:2026-11-01')).toEqual({ from: NOV_1, to: NOV_1 + DAY });
  });

  it('reads each comparison against a date', () => {
    expect(range('created:>=2026-11-01')).toEqual({ from: NOV_1, to: undefined });
    expect(range('created:>2026-11-01')).toEqual({ from: NOV_1 + DAY, to: undefined });
    expect(range('created:<2026-11-01')).toEqual({ from: undefined, to: NOV_1 });
    expect(range('created:<=2026-11-01')).toEqual({ from: undefined, to: NOV_1 + DAY });
  });

  it('reads ranges, closed and open at either end', () => {
    expect(range('created:2026-11-01..2026-11-30')).toEqual({ from: NOV_1, to: Date.UTC(2026, 11, 1) });
    expect(range('created:2026-11-01..*')).toEqual({ from: NOV_1, to: undefined });
    expect(range('created:*..2026-11-01')).toEqual({ from: undefined, to: NOV_1 + DAY });
  });

  it('reads a time as an instant, UTC unless it gives an offset', () => {
    const instant = Date.UTC(2026, 10, 1, 10, 30, 0);
    expect(range('created:>=2026-11-01T10:30:00Z')).toEqual({ from: instant, to: undefined });
    expect(range('created:>=2026-11-01T10:30')).toEqual({ from: instant, to: undefined });
    expect(range('created:>=2026-11-01T12:30:00+02:00')).toEqual({ from: instant, to: undefined });
  });
});

describe('refusals, each naming the problem', () => {
  it.each([
    ['a qualifier it does not know', 'country:de', /`country` is not a qualifier: use one of action, actor/],
    ['a bare word', 'alice', /`alice` has no qualifier/],
    ['an empty value', 'actor:', /`actor:` has no value/],
    ['an unclosed quote', 'actor:"alice', /double quote is not closed/],
    ['a date that does not exist', 'created:2026-02-30', /2026-02-30 is not a date/],
    ['a month out of range', 'created:2026-13-01', /2026-13-01 is not a date/],
    ['a date in another form', 'created:01/11/2026', /01\/11\/2026 is not a date \(YYYY-MM-DD\)/],
    ['a range without ends', 'created:..', /give at least one end/],
    ['an unknown operation', 'operation:delete', /the operation is one of create, modify, remove, access/],
    ['an action that is not area.verb', 'action:hook.create!', /an action is a category or `category.verb`/],
  ])('%s', (_what, phrase, message) => {
    expect(refusal(phrase)).toMatch(message);
  });

  it(`a phrase longer than ${MAX_PHRASE_LENGTH} characters, saying how long it is`, () => {
    const phrase = `actor:${'a'.repeat(10 * 1024)}`;
    expect(refusal(phrase)).toMatch(new RegExp(`it is ${phrase.length} characters long; at most ${MAX_PHRASE_LENGTH}`));
  });
});
