import { parsePrinted, printedMatches, readmeBlocks, shellCommands } from '../helpers/readme';

// The reading of the README that test/e2e/readme.test.ts runs: blocks, commands, printed output.

it('reads fenced blocks with their language, section and line', () => {
  const text = '# t\n\n## One\n\ntext\n\n```sh\necho a\n```\n\n## Two\n```js\nx()\n```\n';
  expect(readmeBlocks(text)).toEqual([
    { lang: 'sh', section: 'One', line: 8, code: 'echo a\n' },
    { lang: 'js', section: 'Two', line: 13, code: 'x()\n' },
  ]);
});

it('splits a shell block where bash ends a command, keeping continuations and quoted bodies spanning lines', () => {
  const code = [
    'A=1; B=2   # two variables',
    "curl -X POST $B \\",
    "  -d '{",
    '  \"a\": 1}\'',
    '# 201 {"a":1}',
    'false',
    '# (exit 1)',
  ].join('\n');
  expect(shellCommands(code)).toEqual([
    { command: 'A=1; B=2   # two variables', printed: [] },
    { command: "curl -X POST $B \\\n  -d '{\n  \"a\": 1}'", printed: ['201 {"a":1}'] },
    { command: 'false', printed: ['(exit 1)'] },
  ]);
  expect(() => shellCommands('# printed\necho')).toThrow('printed output before any command');
  expect(() => shellCommands("echo 'unclosed")).toThrow('an unfinished command');
});

it('reads a status, an exit status and wrapped lines from printed output', () => {
  expect(parsePrinted(['201 {"id":…,', '     "b":2}'])).toEqual({ status: 201, exit: 0, text: '{"id":…,\n"b":2}' });
  expect(parsePrinted(['error: none verified    (exit 1)'])).toEqual({ status: undefined, exit: 1, text: 'error: none verified' });
  expect(parsePrinted(['201'])).toEqual({ status: 201, exit: 0, text: '' });
  expect(parsePrinted(['2 organization roles'])).toEqual({ status: undefined, exit: 0, text: '2 organization roles' });
});

it('matches printed output with whitespace ignored and … standing for any text, the whole of it', () => {
  expect(printedMatches('{"id":…,"b":2}', '{"id":17,"x":[1,2],"b":2}\n')).toBe(true);
  expect(printedMatches('{"id":…,\n"b":2}', '{"id":3,"b":2}')).toBe(true);
  expect(printedMatches('a (b) [c] $d', 'a (b) [c] $d')).toBe(true);
  expect(printedMatches('{"id":…}', '{"id":3,"b":2}')).toBe(true);
  expect(printedMatches('{"id":3}', '{"id":4}')).toBe(false);
  expect(printedMatches('{"id":3}', '{"id":3}{"id":4}')).toBe(false);
  expect(printedMatches('line one\nline two', 'line one\nline two\n')).toBe(true);
  expect(printedMatches('erin', 'erin, frank')).toBe(false);
});
