import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { MirrorDb } from '../../src/db/mirror-db.js';
import { INFLIGHT_STORE, QUARANTINE_MOVING, QUARANTINE_STORE } from '../../src/db/stores.js';
import { version1Stores } from '../../src/db/version-1-stores.js';
import { foldForSearch, productSearchWords, searchWords } from '../../src/db/search-words.js';
import type { StoredRecord } from '../../src/db/sync-rows.js';
import { createQueries } from '../../src/mirror/queries.js';
import { startMirrorFixture, type MirrorFixture } from './fixture.js';

const open: Dexie[] = [];
let fixture: MirrorFixture | undefined;
afterEach(async () => {
  for (const db of open.splice(0)) db.close();
  await fixture?.close();
  fixture = undefined;
});

let n = 0;
async function dbWith(products: StoredRecord[], categories: StoredRecord[] = []): Promise<MirrorDb> {
  const db = new MirrorDb(`product-search-${++n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
  open.push(db);
  await db.products.bulkPut(products);
  await db.categories.bulkPut(categories);
  return db;
}

const product = (id: string, name: string, extra: Record<string, unknown> = {}): StoredRecord => ({ id, _v: 1, _d: 0, _t: 'products', name, visible: true, ...extra });
const category = (id: string, name: string): StoredRecord => ({ id, _v: 1, _d: 0, _t: 'categories', name, id_category_parent: '0' });

/** A Czech coffee shop's catalogue. */
const coffeeShop = () =>
  dbWith(
    [
      product('10', 'Kávovar Moka 3 šálky', { id_category: '2' }),
      product('20', 'Espresso káva', { id_category: '1' }),
      product('30', 'Káva Yirgacheffe 250 g', { id_category: '1', sku: 'ETH-YIR-250', ean13: '8594001234567' }),
      product('40', 'Káva Sidamo 1 kg', { id_category: '1', name_alternative: 'Ethiopia Sidamo' }),
      product('50', 'Čaj Earl Grey', { id_category: '3', barcode: '4006381333931' }),
      product('60', 'Zmrzlina', { id_category: '4' }),
      product('70', 'Káva bez kofeinu', { id_category: '1', visible: false }),
    ],
    [category('1', 'Káva zrnková'), category('2', 'Příslušenství'), category('3', 'Čaje a bylinky'), category('4', 'Dezerty')],
  );

const names = (rows: StoredRecord[]) => rows.map((r) => r.name);

describe('folding text for search', () => {
  it('takes away case and diacritics of any script, through Unicode normalization', () => {
    expect(foldForSearch('Žluťoučký KŮŇ')).toBe('zlutoucky kun');
    expect(foldForSearch('Crème Brûlée')).toBe('creme brulee');
    expect(foldForSearch('ﬁlter')).toBe('filter');
    expect(searchWords('Káva Yirgacheffe, 250 g (bez laktózy)')).toEqual(['kava', 'yirgacheffe', '250', 'g', 'bez', 'laktozy']);
  });

  it('gives a product the distinct words of its name, alternative name and codes, and its whole name', () => {
    expect(productSearchWords({ name: 'Káva káva', name_alternative: 'Coffee', sku: 'ETH-YIR-250', barcode: null, ean13: '859' })).toEqual(['=kava kava', 'kava', 'coffee', 'eth', 'yir', '250', '859']);
  });

  it('gives a deleted product no words, so it is not in the index at all', () => {
    expect(productSearchWords({ name: 'Káva', _d: 5 })).toEqual([]);
    expect(productSearchWords({ name: 'Káva', _d: 0, visible: false })).toEqual([]);
  });
});

describe('searchProducts', () => {
  it('finds a word anywhere in the name, whatever the case and accents typed', async () => {
    const query = createQueries(await coffeeShop());
    for (const typed of ['káva', 'kava', 'KAVA', 'Káva']) {
      expect(names(await query.searchProducts(typed)), typed).toEqual(['Káva Sidamo 1 kg', 'Káva Yirgacheffe 250 g', 'Espresso káva']);
    }
    expect(names(await query.searchProducts('yirga'))).toEqual(['Káva Yirgacheffe 250 g']);
    expect(names(await query.searchProducts('kavo'))).toEqual(['Kávovar Moka 3 šálky']);
  });

  it('ranks the product whose code is the text first, then whole words, then prefixes', async () => {
    const query = createQueries(await coffeeShop());
    expect(names(await query.searchProducts('eth-yir-250'))).toEqual(['Káva Yirgacheffe 250 g']);
    expect(names(await query.searchProducts('8594001234567'))).toEqual(['Káva Yirgacheffe 250 g']);
    expect(names(await query.searchProducts('4006381333931'))).toEqual(['Čaj Earl Grey']);
    // "kav" is no whole word of any: every match is a prefix match, names that start with it first.
    expect(names(await query.searchProducts('kav', { limit: 2 }))).toEqual(['Káva Sidamo 1 kg', 'Káva Yirgacheffe 250 g']);
  });

  it('lets a name that starts other names be picked', async () => {
    const query = createQueries(await dbWith([product('1', 'Cola Zero 0,5 l'), product('2', 'Cola'), product('3', 'Colada mix'), product('4', 'Coca Cola')]));
    expect(names(await query.searchProducts('cola'))).toEqual(['Cola', 'Cola Zero 0,5 l', 'Coca Cola', 'Colada mix']);
    expect(names(await query.searchProducts('cola', { limit: 1 }))).toEqual(['Cola']);
  });

  it('matches the alternative name, the SKU, the start of a barcode, and the category name', async () => {
    const query = createQueries(await coffeeShop());
    expect(names(await query.searchProducts('ethiopia'))).toEqual(['Káva Sidamo 1 kg']);
    expect(names(await query.searchProducts('yir'))).toEqual(['Káva Yirgacheffe 250 g']);
    expect(names(await query.searchProducts('859400'))).toEqual(['Káva Yirgacheffe 250 g']);
    expect(names(await query.searchProducts('bylinky'))).toEqual(['Čaj Earl Grey']);
    expect(names(await query.searchProducts('prislusenstvi'))).toEqual(['Kávovar Moka 3 šálky']);
    expect(names(await query.searchProducts('zrnkova'))).toEqual(['Espresso káva', 'Káva Sidamo 1 kg', 'Káva Yirgacheffe 250 g']);
  });

  it('needs every word typed, in any field and any order', async () => {
    const query = createQueries(await coffeeShop());
    expect(names(await query.searchProducts('250 kava'))).toEqual(['Káva Yirgacheffe 250 g']);
    expect(names(await query.searchProducts('zrnkova sidamo'))).toEqual(['Káva Sidamo 1 kg']);
    expect(await query.searchProducts('kava zmrzlina')).toEqual([]);
    expect(await query.searchProducts('  -- ')).toEqual([]);
  });

  it('hides deleted products, and follows renames at once', async () => {
    const db = await coffeeShop();
    const query = createQueries(db);
    expect(names(await query.searchProducts('kofeinu'))).toEqual([]);
    await db.products.update('60', { name: 'Gelato pistácie' });
    expect(names(await query.searchProducts('zmrzlina'))).toEqual([]);
    expect(names(await query.searchProducts('pistacie'))).toEqual(['Gelato pistácie']);
    await db.products.update('60', { _d: 5 });
    expect(await query.searchProducts('gelato')).toEqual([]);
  });

  it('finds products that came through a pull, and never sends the search words to the server', async () => {
    fixture = await startMirrorFixture();
    const mirror = fixture.mirror();
    await mirror.syncNow({ collections: ['products'] });
    const first = fixture.sim.store.list('products').find((p) => p._d === 0 && p.visible !== false)!;
    const word = searchWords(String(first.name)).sort((a, b) => b.length - a.length)[0]!;
    expect((await mirror.query.searchProducts(word, { limit: 400 })).map((p) => p.id)).toContain(String(first.id));

    const id = await mirror.save('products', { name: 'Quokkův koláč', date_updated: 1 });
    expect(names(await mirror.query.searchProducts('quok'))).toEqual(['Quokkův koláč']);
    await mirror.syncNow({ collections: ['products'] });
    expect(fixture.sim.store.get('products', id)).toMatchObject({ name: 'Quokkův koláč' });
    expect(fixture.sim.store.get('products', id)).not.toHaveProperty('__search');
    expect(names(await mirror.query.searchProducts('quokkuv kolac'))).toEqual(['Quokkův koláč']);
  });
});

describe('searchProducts in one transaction', () => {
  /** A coffee shop's catalogue in a database that counts the transactions its engine opens. */
  async function countingCoffeeShop(): Promise<{ db: MirrorDb; opened: () => number }> {
    const db = new MirrorDb(`product-search-${++n}`, { indexedDB: new IDBFactory(), IDBKeyRange });
    open.push(db);
    let count = 0;
    db.use({ stack: 'dbcore', name: 'count-transactions', create: (down) => ({ ...down, transaction: (...args) => (count++, down.transaction(...args)) }) });
    await db.products.bulkPut([product('20', 'Espresso káva', { id_category: '1' }), product('30', 'Káva Yirgacheffe 250 g', { id_category: '1' }), product('60', 'Zmrzlina', { id_category: '4' })]);
    await db.categories.bulkPut([category('1', 'Káva zrnková'), category('4', 'Dezerty')]);
    return { db, opened: () => count };
  }

  it('reads the catalogue in one read-only transaction (an engine pays for each one it opens)', async () => {
    const { db, opened } = await countingCoffeeShop();
    const query = createQueries(db);
    for (const text of ['kava', 'kava yirga', 'z']) {
      const before = opened();
      await query.searchProducts(text);
      expect(opened() - before, text).toBe(1);
    }
  });

  it('stays in that one transaction when a search reads past its first candidates (common words, words met only in a category name)', async () => {
    const { db, opened } = await countingCoffeeShop();
    // 90 coffees outside the category named "Káva zrnková", 90 teas inside it: "kava zrnk" meets
    // every coffee first (none reaches "zrnk"), then the category's products.
    await db.products.bulkPut([
      ...Array.from({ length: 90 }, (_, i) => product(`k${String(i).padStart(2, '0')}`, `Káva Sidamo ${i}`, { id_category: '4' })),
      ...Array.from({ length: 90 }, (_, i) => product(`t${String(i).padStart(2, '0')}`, `Čaj ${i}`, { id_category: '1' })),
    ]);
    const query = createQueries(db);
    for (const [text, found] of [
      ['kava zrnk', 'Káva Yirgacheffe 250 g'],
      ['zrnk', 'Čaj 0'],
      ['kava sidamo', 'Káva Sidamo 0'],
    ] as const) {
      const before = opened();
      expect(names(await query.searchProducts(text, { limit: 1 })), text).toEqual([found]);
      expect(opened() - before, text).toBe(1);
    }
  });

  it("answers the same inside the app's own transaction and in a live query, joining them", async () => {
    const { db, opened } = await countingCoffeeShop();
    const query = createQueries(db);
    const alone = names(await query.searchProducts('kava'));
    expect(alone).toEqual(['Káva Yirgacheffe 250 g', 'Espresso káva']);
    const before = opened();
    const inside = await db.transaction('rw', [db.products, db.categories, db.customers], () => query.searchProducts('kava'));
    expect(names(inside)).toEqual(alone);
    expect(opened() - before).toBe(1);
    const live = await new Promise<StoredRecord[]>((resolve, reject) => {
      const subscription = Dexie.liveQuery(() => query.searchProducts('kava')).subscribe({ next: (rows) => (subscription.unsubscribe(), resolve(rows)), error: reject });
    });
    expect(names(live)).toEqual(alone);
  });
});

describe('schema version 8 (the category search index)', () => {
  it('gives the categories of a version 7 database their words when it opens, and finds products through them', async () => {
    const factory = new IDBFactory();
    const name = `category-upgrade-${++n}`;
    const v7 = new Dexie(name, { indexedDB: factory, IDBKeyRange });
    v7.version(1).stores(version1Stores());
    v7.version(2).stores({ [QUARANTINE_MOVING]: QUARANTINE_STORE });
    v7.version(3).stores({ _sync_quarantine: null });
    v7.version(4).stores({ _sync_quarantine: QUARANTINE_STORE });
    v7.version(5).stores({ [QUARANTINE_MOVING]: null });
    v7.version(6).stores({ _sync_inflight: INFLIGHT_STORE });
    v7.version(7).stores({ products: `${version1Stores().products}, *__search` });
    await v7.table('products').bulkPut([
      { ...product('50', 'Čaj Earl Grey', { id_category: '3' }), __search: productSearchWords(product('50', 'Čaj Earl Grey')) },
      { ...product('60', 'Zmrzlina', { id_category: '9' }), __search: productSearchWords(product('60', 'Zmrzlina')) },
    ]);
    await v7.table('categories').bulkPut([category('3', 'Čaje a bylinky'), { ...category('9', 'Bylinky staré'), _d: 4 }]);
    v7.close();

    const db = new MirrorDb(name, { indexedDB: factory, IDBKeyRange });
    open.push(db);
    await db.open();
    expect(db.verno).toBe(9);
    expect(await db.categories.get('3')).toMatchObject({ name: 'Čaje a bylinky', __search: ['caje', 'a', 'bylinky'] });
    expect(await db.categories.get('9')).toMatchObject({ __search: [] });
    expect(names(await createQueries(db).searchProducts('bylinky'))).toEqual(['Čaj Earl Grey']);
    // Kept current on every write from then on.
    await db.categories.update('9', { _d: 0 });
    expect(names(await createQueries(db).searchProducts('bylinky'))).toEqual(['Čaj Earl Grey', 'Zmrzlina']);
  });
});

describe('schema version 7 (the product search index)', () => {
  it('gives the products of a version 6 database their search words when it opens', async () => {
    const factory = new IDBFactory();
    const name = `search-upgrade-${++n}`;
    const v6 = new Dexie(name, { indexedDB: factory, IDBKeyRange });
    v6.version(1).stores(version1Stores());
    v6.version(2).stores({ [QUARANTINE_MOVING]: QUARANTINE_STORE });
    v6.version(3).stores({ _sync_quarantine: null });
    v6.version(4).stores({ _sync_quarantine: QUARANTINE_STORE });
    v6.version(5).stores({ [QUARANTINE_MOVING]: null });
    v6.version(6).stores({ _sync_inflight: INFLIGHT_STORE });
    await v6.table('products').bulkPut([product('30', 'Káva Yirgacheffe 250 g'), product('50', 'Čaj Earl Grey')]);
    v6.close();

    const db = new MirrorDb(name, { indexedDB: factory, IDBKeyRange });
    open.push(db);
    await db.open();
    expect(db.verno).toBe(9);
    expect(names(await createQueries(db).searchProducts('caj'))).toEqual(['Čaj Earl Grey']);
    expect(await db.products.get('30')).toMatchObject({ name: 'Káva Yirgacheffe 250 g', __search: ['=kava yirgacheffe 250 g', 'kava', 'yirgacheffe', '250', 'g'] });
  });
});
