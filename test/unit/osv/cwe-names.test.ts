import fs from 'node:fs';
import path from 'node:path';
import catalogue from '../../../src/modules/advisories/osv/cwe-names.json';
import { cweNamesJson, cweNamesOf } from '../../../src/modules/advisories/osv/generate-cwe-names';
import { cweEntry } from '../../../src/modules/advisories/osv';

// A few entries of MITRE's cwec_v4.15.xml, copied as published (test/fixtures/cwe/cwec-sample.xml).
const SAMPLE = fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'cwe', 'cwec-sample.xml'), 'utf8');

describe('generate-cwe-names', () => {
  it('reads the weaknesses, categories and views of a CWE List, entities decoded, in id order', () => {
    const file = cweNamesOf(SAMPLE);
    expect(file.cweListVersion).toBe('4.15');
    expect(Object.entries(file.names)).toEqual([
      ['1', 'DEPRECATED: Location'],
      ['79', "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')"],
      ['1004', "Sensitive Cookie Without 'HttpOnly' Flag"],
      ['1036', 'OWASP Top Ten 2017 Category A10 - Insufficient Logging & Monitoring'],
      ['2000', 'Comprehensive CWE Dictionary'],
    ]);
  });

  it('writes what cwe-names.json holds for the same entries, with the same notice', () => {
    const written = JSON.parse(cweNamesJson(SAMPLE)) as typeof catalogue;
    expect(written.notice).toBe(catalogue.notice);
    expect(written.cweListVersion).toBe(catalogue.cweListVersion);
    for (const [id, name] of Object.entries(written.names)) expect([id, catalogue.names[id as keyof typeof catalogue.names]]).toEqual([id, name]);
  });

  it('refuses a file that is not a CWE List', () => {
    expect(() => cweNamesOf('<Weakness ID="1" Name="x">')).toThrow('not a CWE List');
  });
});

describe('cwe-names.json', () => {
  // Names are kept as published, a trailing space included (CWE-280, CWE-600, …).
  it('maps every id, a positive number, to a non-blank name of one line, entities decoded', () => {
    const entries = Object.entries(catalogue.names);
    expect(entries.length).toBeGreaterThan(1000);
    const malformed = entries.filter(([id, name]) => !/^[1-9][0-9]*$/.test(id) || typeof name !== 'string' || name.trim() === '' || /[\n\r<>]|&(amp|lt|gt|quot|apos|#\d+);/.test(name));
    expect(malformed).toEqual([]);
  });

  it('names an advisory CWE id, and gives the id itself when the list lacks it', () => {
    expect(cweEntry('CWE-79')).toEqual({ cwe_id: 'CWE-79', name: "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')" });
    expect(cweEntry('CWE-999999')).toEqual({ cwe_id: 'CWE-999999', name: 'CWE-999999' });
  });
});
