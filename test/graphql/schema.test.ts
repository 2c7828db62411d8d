import fs from 'node:fs';
import path from 'node:path';
import { printedSchema } from '../../src/graphql/schema';
import { USER_TEXT_LEAKS } from '../helpers/user-text';

it('schema.graphql is what the code emits (run `npm run schema` after changing types)', () => {
  const committed = fs.readFileSync(path.join(__dirname, '..', '..', 'schema.graphql'), 'utf8');
  expect(committed).toBe(printedSchema());
});

it('every type and field has a description', () => {
  const missing: string[] = [];
  const lines = printedSchema().split('\n');
  lines.forEach((line, i) => {
    const isDefinition = /^(type|interface|input|enum|union|scalar) /.test(line) && !/^(scalar (DateTime|JSON)|type (Query|Mutation|Subscription) )/.test(line);
    const isField = /^ {2}[a-zA-Z]\w*(\(|:)/.test(line);
    const previous = lines[i - 1]?.trim() ?? '';
    if ((isDefinition || isField) && !previous.endsWith('"""') && !previous.startsWith('"')) missing.push(line.trim());
  });
  expect(missing).toEqual([]);
});

it('its descriptions speak to users: no spec numbers or files they do not have', () => {
  expect(printedSchema()).not.toMatch(USER_TEXT_LEAKS);
});
