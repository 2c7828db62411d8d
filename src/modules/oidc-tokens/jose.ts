// jose ships only as ES modules: loaded once, when first needed, by import() (which TypeScript
// keeps as one in this CommonJS package: tsconfig `module: node20`). Not a static import: jest's
// CommonJS loader cannot require() an ES module, as Node 20.19 can.

export type Jose = typeof import('jose');

let loading: Promise<Jose> | undefined;

export function loadJose(): Promise<Jose> {
  return (loading ??= import('jose'));
}
