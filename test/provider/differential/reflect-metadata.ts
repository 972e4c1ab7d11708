// The part of the reflect-metadata API that tsyringe asks of its host before @peculiar/x509 loads
// (defineMetadata, getMetadata, getOwnMetadata), kept in a WeakMap: enough for the differential tests,
// so no polyfill package is added for one test file. Import it before @peculiar/x509.
type Key = unknown;
const store = new WeakMap<object, Map<string | symbol | undefined, Map<Key, unknown>>>();

function own(target: object, property: string | symbol | undefined): Map<Key, unknown> | undefined {
  return store.get(target)?.get(property);
}

const api = {
  defineMetadata(key: Key, value: unknown, target: object, property?: string | symbol): void {
    let byProperty = store.get(target);
    if (!byProperty) store.set(target, (byProperty = new Map()));
    let entries = byProperty.get(property);
    if (!entries) byProperty.set(property, (entries = new Map()));
    entries.set(key, value);
  },
  getOwnMetadata(key: Key, target: object, property?: string | symbol): unknown {
    return own(target, property)?.get(key);
  },
  getMetadata(key: Key, target: object, property?: string | symbol): unknown {
    for (let t: object | null = target; t; t = Object.getPrototypeOf(t)) {
      const entries = own(t, property);
      if (entries?.has(key)) return entries.get(key);
    }
    return undefined;
  },
};

const reflect = Reflect as unknown as Record<string, unknown>;
for (const [name, f] of Object.entries(api)) reflect[name] ??= f;
