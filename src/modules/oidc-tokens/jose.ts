import { importEsm } from '../../shared/import-esm';

// jose ships only as ES modules: loaded once, through importEsm, when first needed.

export type Jose = typeof import('jose');

let loading: Promise<Jose> | undefined;

export function loadJose(): Promise<Jose> {
  return (loading ??= importEsm('jose') as Promise<Jose>);
}
