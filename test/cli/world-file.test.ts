import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWorldFile } from '../../src/cli/world-file';
import { loadStreamJson, WorldTokenWalker } from '../../src/cli/world-tokens';

// A streamed world file hands its sections over once (the loader lets them go once written)
// and reads them from the file again when asked again, as a retried transaction does.

const world = {
  users: [{ login: 'octo' }],
  advisories: [{ svcsa_id: 'SVCSA-1', summary: 'a "quoted"\nsummary', description: `${'markdown\\n'.repeat(500)}` }],
  alerts: [{ repository: 'o/r', number: 1 }, { repository: 'o/r', number: 2 }],
  tokens: [],
};

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-world-file-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('hands over the sections, then reads them again from the file, equal each time', async () => {
  const file = path.join(dir, 'world.json');
  fs.writeFileSync(file, JSON.stringify(world, null, 2));
  const source = await openWorldFile(file);
  const { alerts: _alerts, ...sections } = world;
  const first = await source.sections();
  const second = await source.sections();
  expect(first).toEqual(sections);
  expect(second).toEqual(sections);
  expect(second).not.toBe(first);
  expect(source.alertCount).toBe(2);
  const batches = [];
  for await (const batch of source.alertBatches()) batches.push(batch);
  expect(batches).toEqual([{ start: 0, values: world.alerts }]);
});

it('reads array sections element by element as JSON.parse reads them: nested, empty, primitive, and the last of a repeated key', async () => {
  const file = path.join(dir, 'arrays.json');
  const text = `{
    "users": [{"login": "first"}],
    "advisories": [{"svcsa_id": "SVCSA-1", "vulnerabilities": [{"ranges": [[1, 2], []]}]}, {"svcsa_id": "SVCSA-2", "cwes": []}],
    "alerts": [{"number": 1}],
    "teams": [],
    "tokens": ["a", 1, null, true, [false], {"nested": {"deeper": ["x"]}}],
    "users": [{"login": "second"}, {"login": "third"}],
    "oidc": {"organization_subject_templates": [{"org": "o"}]}
  }`;
  fs.writeFileSync(file, text);
  const source = await openWorldFile(file);
  const { alerts: _alerts, ...sections } = JSON.parse(text) as Record<string, unknown>;
  expect(await source.sections()).toEqual(sections);
  const batches = [];
  for await (const batch of source.alertBatches()) batches.push(batch);
  expect(batches).toEqual([{ start: 0, values: [{ number: 1 }] }]);
});

it('keeps no section while it hands the alerts over (the first pass read them): a million alerts load beside no second copy', async () => {
  const streamJson = await loadStreamJson();
  const taken: unknown[] = [];
  const walker = new WorldTokenWalker(streamJson, { occurrence: 1, take: (alert) => taken.push(alert) });
  const tokenizer = streamJson.tokenizer();
  for (const token of [...tokenizer.write(JSON.stringify(world)), ...tokenizer.end()]) walker.consume(token);
  expect(taken).toEqual(world.alerts);
  expect(walker.sections).toEqual({});
});
