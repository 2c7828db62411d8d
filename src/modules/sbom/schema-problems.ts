import type { ErrorObject } from 'ajv';
import type { SbomProblem } from './sbom.types';

/**
 * A schema error as the answer names it: the JSON pointer of the value at fault (a missing or
 * unexpected property's own pointer, not its object's), and what is wrong in words.
 */
export function problemOf(e: Partial<ErrorObject>): SbomProblem {
  const at = e.instancePath ?? '';
  const params = (e.params ?? {}) as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[]; allowedValue?: unknown };
  switch (e.keyword) {
    case 'required':
      return { path: `${at}/${params.missingProperty}`, message: 'is required' };
    case 'additionalProperties':
      return { path: `${at}/${params.additionalProperty}`, message: 'is not a property the specification allows here' };
    case 'enum':
      return { path: at || '/', message: `must be one of ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'const':
      return { path: at || '/', message: `must be ${JSON.stringify(params.allowedValue)}` };
    default:
      return { path: at || '/', message: e.message ?? 'is not valid' };
  }
}
