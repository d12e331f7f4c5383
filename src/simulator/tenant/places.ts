/**
 * Shops, their warehouses, cash registers and park locations (tables, bar seats): the tenant's
 * fixed layout, created in the first hours of its history. Shop s keeps its goods in warehouse
 * `warehouseOfShop(s)`; warehouse 0 is a shared central store.
 */
import type { SimRecord } from '../record.js';
import type { TenantContext } from './tenant-context.js';
import { TableData, commonFields } from './table-data.js';
import { SHOP_KINDS, type ShopKind } from './shop-profiles.js';
import { PLACES } from './words.js';

/** The generated layout and its relations (all by index). */
export interface Places {
  shops: TableData;
  warehouses: TableData;
  cash_registers: TableData;
  park_locations: TableData;
  /** Shop index of register r. */
  shopOfRegister(r: number): number;
  /** Warehouse index where shop s keeps stock. */
  warehouseOfShop(s: number): number;
  /** Shop index that owns warehouse w (the central one belongs to shop 0). */
  shopOfWarehouse(w: number): number;
  /** Currency of shop s. */
  currencyOfShop(s: number): string;
  /** What kind of shop s is (the first word of its name); shop 0 is a café. */
  kindOfShop(s: number): ShopKind;
  /** Park locations of shop s (indexes). */
  parkLocationsOfShop(s: number): readonly number[];
}

const HOUR = 3_600_000;

/** Generates shops, warehouses, cash registers and park locations. */
export function generatePlaces(ctx: TenantContext): Places {
  const { counts, idC } = ctx;
  const setupTimes = (n: number, offset: number): Float64Array => Float64Array.from({ length: n }, (_, i) => ctx.from + offset + i * 60_000);
  const shops = new TableData('shops', setupTimes(counts.shops, 0), ctx.rng('shops.ids'));
  const warehouses = new TableData('warehouses', setupTimes(counts.warehouses, HOUR), ctx.rng('warehouses.ids'));
  const registers = new TableData('cash_registers', setupTimes(counts.cash_registers, 2 * HOUR), ctx.rng('cash_registers.ids'));
  const parks = new TableData('park_locations', setupTimes(counts.park_locations, 3 * HOUR), ctx.rng('park_locations.ids'));

  const S = counts.shops;
  const W = counts.warehouses;
  const currencyOfShop = (s: number): string => (S >= 3 && s === S - 1 ? 'EUR' : 'CZK');
  const placeOf = (s: number): string => PLACES[s % PLACES.length] as string;
  const warehouseOfShop = (s: number): number => (W > 1 ? 1 + (s % (W - 1)) : 0);
  const shopOfWarehouse = (w: number): number => (w === 0 ? 0 : (w - 1) % S);
  const parksByShop: number[][] = Array.from({ length: S }, () => []);
  for (let p = 0; p < counts.park_locations; p++) parksByShop[p % S]?.push(p);

  const kinds: ShopKind[] = [];
  shops.eager((s) => {
    const rng = ctx.rng('shops', s);
    const place = placeOf(s);
    const kind = s === 0 ? 'Kavárna' : rng.pick(SHOP_KINDS);
    kinds.push(kind);
    return Object.assign(commonFields(shops, s, idC), {
      visible: true,
      currency: currencyOfShop(s),
      name: `${kind} ${place.split(' – ').pop() ?? place}`,
      location_name: place,
      bitmask: 0,
    });
  });
  warehouses.eager((w) => (Object.assign(commonFields(warehouses, w, idC), {
    name: w === 0 ? 'Centrální sklad' : `Sklad ${placeOf(shopOfWarehouse(w))}${w > S ? ` ${w}` : ''}`,
    shared: w === 0,
    visible: true,
    warehouse_bitmask: 0,
  })));
  registers.eager((r): SimRecord => {
    const s = r % S;
    return Object.assign(commonFields(registers, r, idC), {
      visible: true,
      name: `Pokladna ${Math.floor(r / S) + 1}`,
      location_name: placeOf(s),
      cash_register_type: r % 4 === 3 ? 1 : 0,
      bitmask: 0,
      id_shop: shops.id(s),
    });
  });
  parks.eager((p) => {
    const s = p % S;
    const n = Math.floor(p / S) + 1;
    return Object.assign(commonFields(parks, p, idC), {
      name: n % 5 === 0 ? `Terasa ${n / 5}` : n % 7 === 0 ? `Bar ${n / 7}` : `Stůl ${n}`,
      id_shop: shops.id(s),
      visible: true,
      node_sort: n,
      capacity: 2 + (n % 4) * 2,
    });
  });

  return {
    shops,
    warehouses,
    cash_registers: registers,
    park_locations: parks,
    shopOfRegister: (r) => r % S,
    warehouseOfShop,
    shopOfWarehouse,
    currencyOfShop,
    kindOfShop: (s) => kinds[s] ?? 'Kavárna',
    parkLocationsOfShop: (s) => parksByShop[s] ?? [],
  };
}
