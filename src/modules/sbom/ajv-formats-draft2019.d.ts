// ajv-formats-draft2019 ships no types: the one function orgsec calls (as the CycloneDX library does).
declare module 'ajv-formats-draft2019' {
  import type Ajv from 'ajv';
  export default function addDraft2019Formats(ajv: Ajv, options?: { formats?: string[] }): Ajv;
}
