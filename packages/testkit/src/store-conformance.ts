import { type StorePlugin, scopedStore } from '@ctxkit/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/** Options for {@link checkStoreConformance} and {@link runStoreConformance}. */
export interface StoreConformanceOptions {
  /** Generated values to round-trip. @default 200 */
  runs?: number;
  /** fast-check seed (printed on failure, to replay it). @default 15 */
  seed?: number;
  /** Test timeout in milliseconds, for stores behind a network. @default 60_000 */
  timeoutMs?: number;
}

let runCounter = 0;

/** A key prefix no earlier check used, so checks can share one server or folder. */
function freshPrefix(): string {
  runCounter += 1;
  return `conformance-${process.pid}-${Date.now().toString(36)}-${runCounter}`;
}

// Keys as ctxkit writes them: segments of [A-Za-z0-9_%-] joined by ':' (model ids are percent-encoded),
// lower case where they could differ only by case, and never a key that is the first segments of another.
const keySegment = fc.stringMatching(/^[A-Za-z0-9_%-]{1,12}$/);
const keyArbitrary = fc.array(keySegment, { minLength: 1, maxLength: 4 }).map((segments) => segments.join(':'));
// Text as tools return it: any code units, JSON-looking text, line endings and padding kept byte for byte.
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom('', ' ', '123', '-0', 'true', 'null', '{"a":1}', '[1,2]', '"quoted"', 'line\r\nline\n', '  padded  ', '\u0000nul', 'caf\u00e9 \u{1F600}'),
);
const value = fc.oneof(
  text,
  fc.jsonValue({ maxDepth: 3 }).filter((candidate) => candidate !== null),
  fc.record({ type: fc.constant('ctxkit.archived-tool-result'), handle: fc.constant('r7'), toolCallId: text, content: text, tokens: fc.nat() }),
);

const same = (actual: unknown, expected: unknown) => JSON.stringify(actual) === JSON.stringify(expected);

/**
 * Holds a store to the store contract of @ctxkit/core: an absent key reads `null`; any JSON value comes
 * back as it went in (strings byte for byte, also when they look like JSON or numbers); the last write
 * wins; a removed key reads `null`, and removing an absent key is no error; values are copies; distinct
 * keys never share an entry; a `scopedStore` view sees only its own keys. A store that offers
 * `setItemIfAbsent` writes only into an empty key, refuses the keys `setItem` refuses, and of several racing
 * calls on one key exactly one wins. A store that offers `getItems` answers every key as `getItem` does, in
 * order, a key asked twice answered twice, each value its own copy. A store that offers `setItems` leaves
 * what `setItem` on each entry in order leaves (a later entry for a key wins), values copied, and refuses
 * the keys `setItem` refuses; `removeItems` removes as `removeItem` on each key does.
 * Rejects with the first broken rule (and fast-check's seed for a generated value).
 * @param createStore makes a store; it may be shared, every check writes under its own key prefix
 */
export async function checkStoreConformance(createStore: () => StorePlugin | Promise<StorePlugin>, options: StoreConformanceOptions = {}): Promise<void> {
  const { runs = 200, seed = 15 } = options;
  const store = scopedStore(await createStore(), freshPrefix());
  let keyNumber = 0;
  const fail = (rule: string) => {
    throw new Error(`store "${store.id}" breaks the store contract: ${rule}`);
  };

  if ((await store.getItem('never-written')) !== null) fail('an absent key must read null');
  await store.removeItem('never-written');

  await fc.assert(
    fc.asyncProperty(keyArbitrary, value, async (generated, written) => {
      // One key per run: a key is never also the first segments of another (a file store keeps keys as paths).
      keyNumber += 1;
      const key = `${keyNumber}:${generated}`;
      await store.setItem(key, written);
      const read = await store.getItem(key);
      if (!same(read, written)) fail(`${JSON.stringify(key)} was written as ${JSON.stringify(written)} and read back as ${JSON.stringify(read)}`);
      if (typeof written === 'string' && read !== written) fail(`the string under ${JSON.stringify(key)} did not come back byte for byte`);
      if (store.getItems) {
        const [batched] = await store.getItems([key]);
        if (!same(batched, written) || (typeof written === 'string' && batched !== written))
          fail(`getItems read ${JSON.stringify(key)} as ${JSON.stringify(batched)}, getItem as ${JSON.stringify(read)}`);
      }
      if (store.setItems) {
        // Its own first segment, so it is never a folder of the key setItem wrote.
        const batchedKey = `${keyNumber}b:${generated}`;
        await store.setItems([{ key: batchedKey, value: written }]);
        const readBatched = await store.getItem(batchedKey);
        if (!same(readBatched, written) || (typeof written === 'string' && readBatched !== written))
          fail(`setItems wrote ${JSON.stringify(written)} under ${JSON.stringify(batchedKey)}, getItem read it back as ${JSON.stringify(readBatched)}`);
      }
    }),
    { numRuns: runs, seed, includeErrorInReport: true },
  );

  await store.setItem('overwritten', { version: 1 });
  await store.setItem('overwritten', { version: 2 });
  if (!same(await store.getItem('overwritten'), { version: 2 })) fail('the last write must win');

  await store.setItem('removed', 'soon gone');
  await store.removeItem('removed');
  if ((await store.getItem('removed')) !== null) fail('a removed key must read null');

  const original = { list: [1, 2], nested: { text: 'kept' } };
  await store.setItem('copied', original);
  original.list.push(3);
  original.nested.text = 'changed by the caller';
  const firstRead = await store.getItem<typeof original>('copied');
  if (!same(firstRead, { list: [1, 2], nested: { text: 'kept' } })) fail('a value changed by the caller after setItem must not change what is stored');
  firstRead!.list.push(4);
  if (!same(await store.getItem('copied'), { list: [1, 2], nested: { text: 'kept' } })) fail('a value changed after getItem must not change what is stored');

  const distinct = ['r7', 'r70', 'x:r7', 'windows:a', 'windows:b', 'windows:a%3Ab'];
  for (const key of distinct) await store.setItem(key, `value of ${key}`);
  for (const key of distinct) {
    const read = await store.getItem(key);
    if (read !== `value of ${key}`) fail(`${JSON.stringify(key)} must keep its own entry, read ${JSON.stringify(read)}`);
  }

  const left = scopedStore(store, 'left');
  const right = scopedStore(store, 'right');
  await left.setItem('r1', 'left archive');
  await right.setItem('r1', 'right archive');
  if ((await left.getItem('r1')) !== 'left archive' || (await right.getItem('r1')) !== 'right archive') fail('two scoped views with the same key must not see each other');
  if ((await store.getItem('r1')) !== null) fail('a scoped view must not write the unscoped key');
  if (store.setItemIfAbsent) await checkSetItemIfAbsent(store, fail);
  if (store.getItems) await checkGetItems(store, fail);
  if (store.setItems) await checkSetItems(store, fail);
  if (store.removeItems) await checkRemoveItems(store, fail);
}

/** Values a batched read must answer exactly as `getItem` does: strings that look like JSON, numbers, objects. */
const batchValues: Record<string, unknown> = {
  'batch:object': { list: [1, 2], nested: { text: 'kept' } },
  'batch:json-text': '{"a":1}',
  'batch:number-text': '123',
  'batch:literal-text': 'null',
  'batch:quoted': '"quoted"',
  'batch:padded': '  padded  ',
  'batch:number': 42,
  'batch:false': false,
  'batch:list': [1, 'two', null],
};

/** The optional batched read: what `getItem` reads, key by key, in order, duplicates answered each time, as copies. */
async function checkGetItems(store: StorePlugin, fail: (rule: string) => never): Promise<void> {
  const read = store.getItems!.bind(store);
  for (const [key, written] of Object.entries(batchValues)) await store.setItem(key, written);
  const keys = ['batch:absent', ...Object.keys(batchValues), 'batch:object', 'batch:absent', 'batch:json-text'];
  const batch = await read(keys);
  if (!Array.isArray(batch) || batch.length !== keys.length) fail(`getItems of ${keys.length} keys must answer ${keys.length} values in an array, answered ${JSON.stringify(batch)}`);
  for (const [index, key] of keys.entries()) {
    const single = await store.getItem(key);
    if (batch[index] !== single && !(typeof single === 'object' && single !== null && same(batch[index], single))) {
      fail(`getItems must answer ${JSON.stringify(key)} (position ${index}) as getItem does: ${JSON.stringify(single)}, it answered ${JSON.stringify(batch[index])}`);
    }
  }
  const [first, twin] = [batch[1], batch[keys.length - 3]] as { list: number[] }[];
  first!.list.push(3);
  if (!same(twin, batchValues['batch:object']) || !same(await store.getItem('batch:object'), batchValues['batch:object'])) {
    fail('getItems must answer each key with its own copy: changing one value changed its twin or the store');
  }
  const empty = await read([]);
  if (!Array.isArray(empty) || empty.length !== 0) fail(`getItems of no keys must answer [], answered ${JSON.stringify(empty)}`);
  // A key getItem refuses (file and Redis stores refuse `.` and `..` segments) fails the batch that holds it.
  const refused = await store.getItem('odd:..:key').then(
    () => false,
    () => true,
  );
  const batchRefused = await read(['batch:number', 'odd:..:key']).then(
    () => false,
    () => true,
  );
  if (refused !== batchRefused) fail(`getItems must refuse a key getItem refuses, and read one it reads ("odd:..:key": getItem ${refused ? 'refused' : 'read'} it)`);
}

/** The optional batched write: what `setItem` on each entry in order would leave, as copies, refusing what it refuses. */
async function checkSetItems(store: StorePlugin, fail: (rule: string) => never): Promise<void> {
  const write = store.setItems!.bind(store);
  const values = Object.entries(batchValues);
  for (const [key, value] of values) await store.setItem(`single:${key}`, value);
  await store.setItem('batched:replaced', 'before the batch');
  const object = { list: [1], nested: { text: 'kept' } };
  await write([
    { key: 'batched:twice', value: { first: true } },
    ...values.map(([key, value]) => ({ key: `batched:${key}`, value })),
    { key: 'batched:replaced', value: 'by the batch' },
    { key: 'batched:copied', value: object },
    { key: 'batched:twice', value: '123' },
  ]);
  object.list.push(2);
  for (const [key] of values) {
    const [single, batched] = [await store.getItem(`single:${key}`), await store.getItem(`batched:${key}`)];
    if (!same(batched, single) || (typeof single === 'string' && batched !== single)) {
      fail(`setItems must write as setItem does: ${JSON.stringify(key)} reads ${JSON.stringify(batched)} written by setItems, ${JSON.stringify(single)} by setItem`);
    }
  }
  const twice = await store.getItem('batched:twice');
  if (twice !== '123') fail(`setItems must leave the later of two entries for one key, as setItem in order would: "batched:twice" reads ${JSON.stringify(twice)}, not "123"`);
  if ((await store.getItem('batched:replaced')) !== 'by the batch') fail('setItems must overwrite a key written before');
  if (!same(await store.getItem('batched:copied'), { list: [1], nested: { text: 'kept' } })) fail('a value changed by the caller after setItems must not change what is stored');
  await write([]);
  const refused = await store.setItem('odd:..:single', 'x').then(
    () => false,
    () => true,
  );
  const batchRefused = await write([
    { key: 'batched:beside-odd', value: 1 },
    { key: 'odd:..:batched', value: 'x' },
  ]).then(
    () => false,
    () => true,
  );
  if (refused !== batchRefused) fail(`setItems must refuse a key setItem refuses, and write one it writes ("odd:..:key": setItem ${refused ? 'refused' : 'wrote'} it)`);
}

/** The optional batched remove: each key as `removeItem` removes it, absent keys no error. */
async function checkRemoveItems(store: StorePlugin, fail: (rule: string) => never): Promise<void> {
  for (const key of ['removed:a', 'removed:b', 'removed:kept']) await store.setItem(key, key);
  await store.removeItems!(['removed:a', 'removed:never-written', 'removed:b', 'removed:a']);
  await store.removeItems!([]);
  const left = [await store.getItem('removed:a'), await store.getItem('removed:b'), await store.getItem('removed:kept')];
  if (!same(left, [null, null, 'removed:kept'])) fail(`removeItems must remove exactly the keys it is given: "removed:a", "removed:b", "removed:kept" read ${JSON.stringify(left)}`);
}

/** The optional atomic write: only into an empty key, reads back like `setItem`, and one winner of a race. */
async function checkSetItemIfAbsent(store: StorePlugin, fail: (rule: string) => never): Promise<void> {
  const claim = store.setItemIfAbsent!.bind(store);
  if ((await claim('claimed', { first: true })) !== true) fail('setItemIfAbsent on an absent key must write and answer true');
  if ((await claim('claimed', { first: false })) !== false) fail('setItemIfAbsent on a written key must answer false');
  if (!same(await store.getItem('claimed'), { first: true })) fail('setItemIfAbsent on a written key must leave its value');
  if ((await claim('claimed-text', '123')) !== true || (await store.getItem('claimed-text')) !== '123') fail('a string written by setItemIfAbsent must read back byte for byte');
  await store.setItem('set-first', 'by setItem');
  if ((await claim('set-first', 'by setItemIfAbsent')) !== false) fail('setItemIfAbsent must see a key written by setItem');
  await store.removeItem('claimed');
  if ((await claim('claimed', 'again')) !== true) fail('setItemIfAbsent must write into a removed key');
  // A key setItem refuses (file and Redis stores refuse `.` and `..` segments) must be refused here too: a
  // claim there writes where no read can see it (a file store's `.` is its own folder).
  for (const key of ['odd:.:key', 'odd:..:key']) {
    const written = await store.setItem(key, 'by setItem').then(
      () => true,
      () => false,
    );
    const claimed = await claim(key, 'by setItemIfAbsent').then(
      (answer) => JSON.stringify(answer),
      () => 'a refusal',
    );
    if (!written && claimed !== 'a refusal') fail(`setItemIfAbsent(${JSON.stringify(key)}) must refuse a key setItem refuses; it answered ${claimed}`);
    if (written && claimed !== 'false') fail(`setItemIfAbsent(${JSON.stringify(key)}) on a key setItem wrote must answer false; it answered ${claimed}`);
    if (written) await store.removeItem(key);
  }
  const answers = await Promise.all(Array.from({ length: 8 }, (_, racer) => claim('raced', racer)));
  if (answers.filter(Boolean).length !== 1) fail(`of 8 racing setItemIfAbsent calls on one key exactly one must win, ${answers.filter(Boolean).length} did`);
  if ((await store.getItem('raced')) !== answers.indexOf(true)) fail("the key raced for must hold the winner's value");
}

/**
 * Registers a vitest suite that holds a store to the store contract (see {@link checkStoreConformance}):
 * memory, file and Redis stores all pass the same checks.
 * @example
 * ```ts
 * import { runStoreConformance } from '@ctxkit/testkit';
 * runStoreConformance('file', () => fileStore(mkdtempSync(join(tmpdir(), 'ctxkit-'))));
 * ```
 */
export function runStoreConformance(name: string, createStore: () => StorePlugin | Promise<StorePlugin>, options: StoreConformanceOptions = {}): void {
  describe(`store conformance: ${name}`, () => {
    it(
      `keeps the store contract (absent keys, round trips of ${options.runs ?? 200} generated values, overwrite, remove, copies, distinct and scoped keys)`,
      async () => {
        await expect(checkStoreConformance(createStore, options)).resolves.toBeUndefined();
      },
      options.timeoutMs ?? 60_000,
    );
  });
}
