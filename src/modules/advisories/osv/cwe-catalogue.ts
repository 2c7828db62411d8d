// The names come from MITRE's CWE List (see its notice): generate-cwe-names.ts writes the file.
import catalogue from './cwe-names.json';

const CWE_NAMES: Readonly<Record<string, string>> = catalogue.names;

/** `{cwe_id, name}` for an advisory's CWE id (`CWE-79`); the name is the id itself when the catalogue lacks it. */
export function cweEntry(cweId: string): { cwe_id: string; name: string } {
  const match = /^CWE-(\d+)$/i.exec(cweId.trim());
  const name = match?.[1] === undefined ? undefined : CWE_NAMES[String(Number(match[1]))];
  return { cwe_id: cweId, name: name ?? cweId };
}
