import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWorldFile } from '../../src/cli/world-file';

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
