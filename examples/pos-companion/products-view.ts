import { debounce, h, replace } from '../shared/dom.js';
import { priceLabel } from '../shared/format.js';
import type { Mirror, StoredRecord } from 'pos-cloud-mirror';
import { showLive } from '../shared/view-problem.js';

/** A product found by the lookup, with its price in force now. */
interface ProductHit {
  product: StoredRecord;
  price: StoredRecord | undefined;
  category: string | undefined;
}

/** Finds products by name (prefix), barcode, EAN or SKU in the local copy, with current prices. */
async function lookupProducts(mirror: Mirror, text: string): Promise<ProductHit[]> {
  const products = await mirror.query.searchProducts(text, { limit: 30 });
  return Promise.all(
    products.map(async (product) => {
      const [price, category] = await Promise.all([
        mirror.query.priceOf(product.id, typeof product.id_shop === 'string' && product.id_shop !== '0' ? { idShop: product.id_shop } : {}),
        typeof product.id_category === 'string' ? mirror.db.categories.get(product.id_category) : undefined,
      ]);
      return { product, price, category: typeof category?.name === 'string' ? category.name : undefined };
    }),
  );
}

/**
 * Product lookup: type a name, or scan or type a barcode or EAN. It searches the copy on this
 * device, so it answers with the network off; results follow price changes as they sync.
 */
export function productsView(el: HTMLElement, mirror: Mirror, locale: string | undefined): () => void {
  const input = h('input', {
    class: 'big',
    type: 'search',
    placeholder: 'Product name, barcode or EAN',
    autofocus: true,
    'data-test': 'product-search',
  });
  const results = h('div', { 'data-test': 'product-results' });
  let sub: { unsubscribe(): void } | undefined;

  const search = (text: string) => {
    sub?.unsubscribe();
    if (text.trim() === '') {
      replace(results, h('div', { class: 'empty' }, 'Start typing a name, or scan a code.'));
      return;
    }
    sub = showLive(mirror.live(() => lookupProducts(mirror, text)), 'the products found', (hits) => render(results, hits, text, locale), (notice) => replace(results, notice));
  };
  input.addEventListener('input', debounce(() => search(input.value), 120));
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') search(input.value);
  });

  replace(
    el,
    h('div', { class: 'card lookup' },
      h('div', { class: 'card-head' }, h('h2', null, 'Product lookup'), h('span', { class: 'muted small' }, 'Searches this device: works offline')),
      h('div', { class: 'card-body' }, input),
      results),
  );
  search('');
  input.focus();
  return () => sub?.unsubscribe();
}

function render(el: HTMLElement, hits: ProductHit[], text: string, locale: string | undefined): void {
  if (hits.length === 0) {
    replace(el, h('div', { class: 'empty' }, `Nothing matches “${text}”.`));
    return;
  }
  replace(
    el,
    h('table', { class: 'products' },
      h('thead', null, h('tr', null, h('th', null, 'Product'), h('th', null, 'Barcode'), h('th', null, 'EAN'), h('th', { class: 'right' }, 'Price'))),
      h('tbody', null,
        hits.map(({ product, price, category }) => {
          const label = priceLabel(price, locale);
          return h('tr', { 'data-test': 'product', 'data-product-id': product.id },
            h('td', null, h('div', { class: 'product-name' }, String(product.name ?? '')), category && h('div', { class: 'muted small' }, category)),
            h('td', { class: 'num' }, typeof product.barcode === 'string' ? product.barcode : '—'),
            h('td', { class: 'num' }, typeof product.ean13 === 'string' ? product.ean13 : '—'),
            h('td', { class: 'right' },
              h('div', { class: 'money', 'data-test': 'product-price' }, label.amount || '—'),
              h('div', { class: 'muted small' }, label.note)));
        }))),
  );
}
