/**
 * Employees and customers. A few staff exist from the first day, the rest are hired over the
 * years (some have left: invisible, with `date_expires`). Customers register throughout the
 * history; some are companies, some were deleted, many fields are null as in real data.
 */
import type { SimRecord } from '../record.js';
import type { Rng } from '../rng.js';
import type { TenantContext } from './tenant-context.js';
import { TableData, commonFields } from './table-data.js';
import { DAY, countBefore, spreadTimes } from './timeline.js';
import { PLACES, SURNAMES, ascii, ean13, email, personName, phone } from './words.js';

/** Generated people and what sales need to know about them. */
export interface People {
  employees: TableData;
  customers: TableData;
  /** A random employee already hired at time t. */
  employeeAt(t: number, rng: Rng): number;
  /** A random customer registered and not deleted at time t, or -1. */
  customerAt(t: number, rng: Rng): number;
}

/** Generates employees and customers. */
export function generatePeople(ctx: TenantContext): People {
  const { counts } = ctx;
  const founders = Math.min(counts.employees, 3);
  const empTimes = new Float64Array(counts.employees);
  for (let i = 0; i < founders; i++) empTimes[i] = ctx.from + 4 * 3_600_000 + i * 60_000;
  const hired = spreadTimes(counts.employees - founders, ctx.from + DAY, ctx.to - 30 * DAY, ctx.rng('employees.times'));
  empTimes.set(hired, founders);
  const employees = new TableData('employees', empTimes, ctx.rng('employees.ids'));
  employees.eager((e) => employee(ctx, employees, e));

  const custTimes = spreadTimes(counts.customers, ctx.from + DAY, ctx.to - DAY, ctx.rng('customers.times'));
  const customers = new TableData('customers', custTimes, ctx.rng('customers.ids'));
  const deletedAt = new Float64Array(counts.customers);
  customers.eager((c) => customer(ctx, customers, c, deletedAt));

  return {
    employees,
    customers,
    employeeAt: (t, rng) => rng.int(0, Math.max(1, countBefore(empTimes, t)) - 1),
    customerAt(t, rng) {
      const n = countBefore(custTimes, t);
      for (let attempt = 0; n > 0 && attempt < 4; attempt++) {
        const c = rng.int(0, n - 1);
        const gone = deletedAt[c] as number;
        if (gone === 0 || gone > t) return c;
      }
      return -1;
    },
  };
}

function employee(ctx: TenantContext, table: TableData, e: number): SimRecord {
  const rng = ctx.rng('employees', e);
  const { first, last } = personName(rng);
  const left = e >= 3 && rng.chance(0.15);
  const leftAt = left ? Math.min(ctx.to, (table.times[e] as number) + rng.int(30, 700) * DAY) : 0;
  if (left) table.versions[e] = leftAt;
  return Object.assign(commonFields(table, e, ctx.idC), {
    name: `${first} ${last}`,
    visible: !left,
    visible_cash_register: !left,
    pin_require: rng.chance(0.7),
    perm_inventory_bitmask: e === 0 ? 255 : rng.pick([0, 1, 3]),
    perm_cloud_bitmask: e === 0 ? 255 : 0,
    perm_bitmask: e === 0 ? 65535 : rng.pick([1, 3, 7, 15]),
    salt: rng.uint32().toString(16),
    pin_hash: rng.uint32().toString(16).padStart(8, '0') + rng.uint32().toString(16).padStart(8, '0'),
    pass_hash: e === 0 ? rng.uint32().toString(16) : null,
    otp_hash: null,
    tags: e === 0 ? 'vedoucí' : null,
    phone_number: rng.chance(0.6) ? phone(rng) : null,
    barcode: rng.chance(0.5) ? `29${String(100000 + e).padStart(10, '0')}` : null,
    email: rng.chance(0.5) ? `${ascii(first)}.${ascii(last)}@firma.cz` : null,
    date_expires: left ? leftAt : null,
  });
}

function customer(ctx: TenantContext, table: TableData, c: number, deletedAt: Float64Array): SimRecord {
  const rng = ctx.rng('customers', c);
  const created = table.times[c] as number;
  const { first, last } = personName(rng);
  const company = rng.chance(0.15) ? `${rng.pick(SURNAMES)} ${rng.pick(['s.r.o.', 'a.s.', 'v.o.s.', '& syn'])}` : null;
  const deleted = rng.chance(0.02) ? rng.int(created + 1, Math.max(created + 1, ctx.to)) : 0;
  const edited = rng.chance(0.3) ? rng.int(created, Math.max(created, ctx.to)) : created;
  deletedAt[c] = deleted;
  const version = Math.max(edited, deleted);
  table.versions[c] = version;
  const place = rng.pick(PLACES);
  return Object.assign(commonFields(table, c, ctx.idC, deleted), {
    company,
    firstname: rng.chance(0.95) ? first : null,
    lastname: last,
    zip_code: rng.chance(0.6) ? `${rng.int(100, 799)} ${rng.pick(['00', '01', '02', '11'])}` : null,
    geohash: null,
    company_ico: company ? String(rng.int(10_000_000, 99_999_999)) : null,
    company_dic: company ? `CZ${rng.int(10_000_000, 99_999_999)}` : null,
    street: rng.chance(0.6) ? `${rng.pick(['Letohradská', 'Dukelských hrdinů', 'Křižíkova', 'Údolní', 'Nádražní', 'Husova'])} ${rng.int(1, 120)}` : null,
    city: rng.chance(0.6) ? (place.split(' – ')[0] ?? place) : null,
    bank_account: null,
    credit_account: null,
    internal_json: null,
    barcode: rng.chance(0.4) ? ean13(rng) : null,
    tags: rng.chance(0.1) ? 'vip' : null,
    note_external: null,
    note_internal: rng.chance(0.05) ? 'Alergie na ořechy – upozornit kuchyni.' : null,
    phone_number: rng.chance(0.6) ? phone(rng) : null,
    internal_extra: null,
    date_birthday: rng.chance(0.2) ? Date.UTC(rng.int(1971, 2005), rng.int(0, 11), rng.int(1, 28)) : null,
    date_expires: null,
    id_discount_group: '0',
    email: rng.chance(0.7) ? email(first, last, rng) : null,
    customer_type: company ? 1 : 0,
    color: 0,
    bitmask: 0,
    visible: deleted === 0,
    country_code: rng.chance(0.9) ? 'CZ' : 'SK',
    price_group: rng.chance(0.8) ? 'A' : rng.chance(0.5) ? 'B' : 'C',
    price_discount: rng.chance(0.1) ? 5000 : 0,
    date_updated: edited,
  });
}
