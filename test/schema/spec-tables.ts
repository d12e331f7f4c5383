/**
 * The spec's resource tables (docs/service-api.md, "Resources and their fields"), written out
 * by hand for the tests. Expectations are derived from these tables, never from the schemas, so
 * a missing default or rule in a schema makes a test fail.
 */

/** A value type in the spec's notation. */
export type SpecType =
  | 'id' // integer id, number or big integer accepted
  | 'int' // integer (whole number)
  | 'num' // number, fractions allowed ("number", "decimal", "int?" = number or null)
  | 'time' // integer ms (spec convention 1: every date_* field)
  | 'str'
  | 'bool'
  | 'email' // string in e-mail format, or null
  | 'enum';

/** One row of a resource table. */
export interface SpecField {
  type: SpecType;
  /** `true`: required, no default. `'nullable'`: the key is required but may be null. */
  required?: true | 'nullable';
  /** The documented default (`NOW` for "current time"). */
  default?: unknown;
  /** ">= 0" rule. */
  min0?: true;
  /** Exact length of a string. */
  length?: number;
  /** Allowed values of an enum. */
  values?: readonly string[];
  /** "X or null" where the field has a default. */
  nullable?: true;
}

/** Marker for the "current time" default. */
export const NOW = Symbol('current time');

/** One resource of the spec. */
export interface SpecResource {
  name: string;
  /** The `_t` literal. */
  t: string;
  /** Whether the spec's shape carries `date_created` (common field; absent from some read shapes). */
  dateCreated: boolean;
  /** Whether the spec states the `_t` literal (section heading `_t = ...`). */
  tStated: boolean;
  fields: Record<string, SpecField>;
}

const id: SpecField = { type: 'id' };
const reqId: SpecField = { type: 'id', required: true };
const str: SpecField = { type: 'str' };
const time: SpecField = { type: 'time' };
const num: SpecField = { type: 'num' };
const int: SpecField = { type: 'int' };
const int0: SpecField = { type: 'int', default: 0 };
const num0: SpecField = { type: 'num', default: 0 };
const id0: SpecField = { type: 'id', default: '0' };
const many = (names: string, field: SpecField): Record<string, SpecField> =>
  Object.fromEntries(names.split(/,\s*/).map((n) => [n, field]));

export const customers: SpecResource = {
  name: 'customers',
  t: 'customers',
  dateCreated: true,
  tStated: true,
  fields: {
    company: { type: 'str', required: 'nullable' },
    ...many(
      'firstname, lastname, zip_code, geohash, company_ico, company_dic, street, city, bank_account, credit_account, internal_json, barcode, tags, note_external, note_internal, phone_number, internal_extra',
      str,
    ),
    date_birthday: time,
    date_expires: time,
    id_discount_group: id,
    email: { type: 'email' },
    customer_type: { type: 'int', min0: true, default: 0 },
    color: { type: 'int', min0: true, default: 0 },
    bitmask: { type: 'int', min0: true, default: 0 },
    visible: { type: 'bool', default: true },
    country_code: { type: 'str', length: 2, default: 'CZ' },
    price_group: { type: 'enum', values: ['A', 'B', 'C'], default: 'A' },
    price_discount: { type: 'int', default: 0 },
    date_updated: { type: 'time', default: NOW },
  },
};

export const orders: SpecResource = {
  name: 'orders',
  t: 'orders',
  dateCreated: true,
  tStated: true,
  fields: {
    ...many('id_shop, id_cash_register, id_shift, id_employee, id_employee_served, id_park_location', reqId),
    currency: { type: 'str', required: 'nullable' },
    ...many('id_address_invoice, id_canceled_order, id_customer, id_tax_report, id_address_delivery, id_shipping, id_superseded', id),
    // "Numbers with default 0". Points and credits are plain numbers; the totals are money, which
    // spec convention 2 makes integers; id_payment is an integer payment-form code.
    total_points: num0,
    total_credits: num0,
    ...many(
      'total_profit_tax_incl, total_profit_tax_excl, total_tax_gst, total_shipping_tax_incl, total_shipping_tax_excl, total_tax_service, total_discounts_tax_incl, total_discounts_tax_excl, total_tax_pst, total_tax_luxury, total_tax_eco, total_paid_real, total_paid_tax_incl, total_paid_tax_excl, total_tip, total_wrapping_tax_incl, total_wrapping_tax_excl, total_products, id_payment',
      int0,
    ),
    dine_in: { type: 'bool', default: false },
    conversion_rate: { type: 'num', default: 1.0 },
    ...many(
      'date_closed, date_paid, date_canceled, date_fiscalized, date_tax_reported, date_loc_acq, date_collected, date_due_pay, date_emailed',
      time,
    ),
    ...many('invoice_number, order_serial_number, total_people_seated', num), // int? = number or null
    ...many('short_code, geohash, note, coupon_code, coupon_source, shipping_number, customer_zip, summary, tags', str),
  },
};

export const order_details: SpecResource = {
  name: 'order_details',
  t: 'order_details',
  dateCreated: true,
  tStated: true,
  fields: {
    ...many('id_order, id_shop, id_cash_register, id_shift, id_product, id_category, id_employee, id_warehouse', reqId),
    currency: { type: 'str', required: true, length: 3 },
    id_customer: id,
    id_order_details_parent: id,
    id_payment: int0,
    total_points: { type: 'int', min0: true, default: 0 }, // number >= 0 (whole number)
    total_credits: num0,
    total_tax_pst: int0, // may be negative
    total_tax_luxury: { type: 'int', min0: true, default: 0 },
    total_tax_eco: int0,
    product_name: { type: 'str', default: 'Unknown' },
    product_name_alternative: { type: 'str', default: '' },
    product_unit: { type: 'int', min0: true, default: 0 },
    ...many('product_price_original_tax_excl, product_price_billed_tax_excl, product_price_billed_tax_incl', int0),
    ...many('reduction_amount_tax_incl, reduction_amount_tax_excl', int0),
    reduction_percent: { type: 'int', min0: true, default: 0 },
    order_number: { type: 'int', min0: true, default: 0 },
    product_quantity: num0,
    tax_pst_rate: { type: 'num', default: 1.0 },
    product_bitmask: { type: 'int', min0: true, default: 0 },
    product_item_type: { type: 'int', min0: true, default: 0 },
    ...many('date_paid, date_canceled, date_timing_started, date_updated, date_item_printed, date_collected, date_voided', time),
    ...many('product_purchase_price_tax_excl, product_attribute_id, total_weight', num),
    ...many('product_barcode, product_upc, product_ean13, tags, note, reference_code', str),
  },
};

export const employees: SpecResource = {
  name: 'employees',
  t: 'employees',
  dateCreated: true,
  tStated: true,
  fields: {
    name: { type: 'str', required: true },
    visible: { type: 'bool', default: true },
    visible_cash_register: { type: 'bool', default: true },
    pin_require: { type: 'bool', default: false },
    ...many('perm_inventory_bitmask, perm_cloud_bitmask, perm_bitmask', int0),
    ...many('salt, pin_hash, pass_hash, otp_hash, tags, phone_number, barcode, email', str),
    date_expires: time,
  },
};

export const stock_history: SpecResource = {
  name: 'stock_history',
  t: 'stock_history',
  dateCreated: true,
  tStated: true,
  fields: {
    ...many('id_employee, id_shop, id_warehouse, id_record, id_cash_register', reqId),
    ...many('id_stockup, id_supplier, id_order', id),
    stock_type: { type: 'int', required: true },
    stock_history_type: { type: 'int', required: true },
    quanity: { type: 'num', default: 0.0 },
    date_stocked: time,
    note: str,
    supplier_sku: str,
    product_purchase_unit_price_tax_excl: int,
  },
};

export const transactions: SpecResource = {
  name: 'transactions',
  t: 'transactions',
  dateCreated: true,
  tStated: true,
  fields: {
    transaction_type: { type: 'int', required: true },
    payment_type: { type: 'int', required: true, min0: true },
    id_employee: reqId,
    id_shop: reqId,
    id_cash_register: id0,
    id_shift: id0,
    id_customer: id,
    id_order: id,
    total_amount: int0,
    ...many('note, transaction_code, reference_code', str),
  },
};

export const stockup: SpecResource = {
  name: 'stockup',
  t: 'stockup',
  dateCreated: true,
  tStated: true,
  fields: {
    ...many('id_cash_register, id_employee, id_shop, id_warehouse', reqId), // "integer": ids
    stock_history_type: { type: 'int', required: true },
    id_supplier: id,
    total_product_purchase_unit_price_tax_excl: int,
    date_stocked: time,
    note: str,
    invoice_number: str,
  },
};

export const warehouses: SpecResource = {
  name: 'warehouses',
  t: 'warehouses',
  dateCreated: true,
  tStated: true,
  fields: {
    name: { type: 'str', required: true },
    shared: { type: 'bool', default: false },
    visible: { type: 'bool', default: true },
    warehouse_bitmask: int0,
  },
};

export const products: SpecResource = {
  name: 'products',
  t: 'products',
  dateCreated: true,
  tStated: true,
  fields: {
    name: { type: 'str', required: true },
    date_updated: { type: 'time', required: true },
    quantity_multiple: { type: 'num', default: 1 },
    quantity_minimal: { type: 'num', default: 1 },
    additional_shipping_cost: num0,
    inventory_management: { type: 'bool', default: false },
    visible: { type: 'bool', default: true },
    ...many(
      'color, item_type, warranty_length, condition_type, icon_code, warranty_type, unit, sale_group_type, attributes_bitmask, inventory_type',
      int0,
    ),
    ...many('id_category, id_exec_rule, id_shop', id0),
    node_sort: int0, // typed "id" in this table, "integer" in categories: kept a number
    id_tax_rules_group: { type: 'id', default: '0', nullable: true },
    id_global_product_code: id,
    ...many('tax_luxury, tax_eco, tax_pst_rate', { type: 'num', default: 1 }),
    accounting_group: { type: 'int', default: 600000 },
    image_dimension: int,
    ...many('height, weight, depth, width', num),
    ...many(
      'notes_quick, ean13, name_alternative, sku, barcode, image_url, upc, details_url, tags, description_short, internal_extra',
      str,
    ),
    deleted: int, // a create payload may carry it
  },
};

export const product_price_matrix: SpecResource = {
  name: 'product_price_matrix',
  t: 'product_price_matrix',
  dateCreated: true,
  tStated: true,
  fields: {
    id_product: reqId,
    date_starts: { type: 'time', required: true },
    currency: { type: 'str', required: true },
    unit_price_base_tax_excl: num,
    unit_price_base_tax_incl: num,
    unit_price_regular_tax_excl: int0,
    reduction_amount_a_tax_excl: int0,
    ...many('unit_price_a_tax_excl, unit_price_b_tax_excl, unit_price_c_tax_excl', int),
    points_deduct: num0,
    credits_deduct: num0,
    ...many('hour_bitmask, price_bitmask, dow_bitmask', int0),
    ...many('id_exec_rule, id_shop, id_warehouse', id0),
    date_expires: time,
  },
};

/** Read shapes only: no rules table; name (and a register's shop) taken as required. */
export const shops: SpecResource = {
  name: 'shops',
  t: 'shops',
  dateCreated: false,
  tStated: false,
  fields: {
    name: { type: 'str', required: true },
    visible: { type: 'bool' },
    currency: str,
    location_name: str,
    bitmask: int,
  },
};

export const cash_registers: SpecResource = {
  name: 'cash_registers',
  t: 'cash_registers',
  dateCreated: false,
  tStated: false,
  fields: {
    name: { type: 'str', required: true },
    id_shop: reqId,
    visible: { type: 'bool' },
    location_name: str,
    cash_register_type: int,
    bitmask: int,
  },
};

export const categories: SpecResource = {
  name: 'categories',
  t: 'categories',
  dateCreated: false,
  tStated: false,
  fields: {
    name: { type: 'str', required: true },
    visible: { type: 'bool' },
    category_bitmask: int,
    icon_code: int,
    node_sort: int,
    id_category_sort_after: id0, // 0 if none
    id_category_parent: id0, // 0 for a root
    id_shop: id,
    color: int,
    tags: str,
  },
};

/** Fields not shown by the spec: only the common fields apply. */
export const shifts: SpecResource = { name: 'shifts', t: 'shifts', dateCreated: true, tStated: false, fields: {} };
export const park_locations: SpecResource = {
  name: 'park_locations',
  t: 'park_locations',
  dateCreated: true,
  tStated: false,
  fields: {},
};

/** Every resource with schemas: the 14 collections and categories. */
export const SPEC_RESOURCES: readonly SpecResource[] = [
  products,
  customers,
  product_price_matrix,
  shops,
  cash_registers,
  employees,
  park_locations,
  shifts,
  stock_history,
  stockup,
  transactions,
  warehouses,
  orders,
  order_details,
  categories,
];
