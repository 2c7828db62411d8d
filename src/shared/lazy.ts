/**
 * An object whose every property is built by its factory on first read, then kept: a
 * request's bound services construct only the ones it uses.
 */
export function lazyObject<T extends object>(factories: { [K in keyof T]: () => T[K] }): T {
  const object = {} as T;
  for (const key of Object.keys(factories) as Array<keyof T>) {
    Object.defineProperty(object, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = factories[key]();
        Object.defineProperty(object, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return object;
}
