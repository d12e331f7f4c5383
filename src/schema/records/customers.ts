import type { z } from 'zod';
import { bool, email, int, oneOf, optional, required, str, time, withDefault, id, nullable } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';
import { currentTime } from '../write-clock.js';

/** Fields of `customers` as the spec's table lists them. */
export const customerFields = {
  ...dateCreatedField,
  company: required(nullable(str())), // the key must be present; null allowed
  firstname: optional(str()),
  lastname: optional(str()),
  zip_code: optional(str()),
  geohash: optional(str()),
  company_ico: optional(str()),
  company_dic: optional(str()),
  street: optional(str()),
  city: optional(str()),
  bank_account: optional(str()),
  credit_account: optional(str()),
  internal_json: optional(str()),
  barcode: optional(str()),
  tags: optional(str()),
  note_external: optional(str()),
  note_internal: optional(str()),
  phone_number: optional(str()),
  internal_extra: optional(str()),
  date_birthday: optional(time()),
  date_expires: optional(time()),
  id_discount_group: optional(id()),
  email: optional(email()),
  customer_type: withDefault(int({ min: 0 }), 0),
  color: withDefault(int({ min: 0 }), 0),
  bitmask: withDefault(int({ min: 0 }), 0),
  visible: withDefault(bool(), true),
  country_code: withDefault(str({ length: 2 }), 'CZ'),
  price_group: withDefault(oneOf(['A', 'B', 'C']), 'A'),
  price_discount: withDefault(int(), 0),
  date_updated: withDefault(time(), currentTime),
};

/** Both faces of `customers` (`_t` = `customers`). Customers carry `id_c` as a string on the wire. */
export const customerSchemas = defineRecord('customers', customerFields);

/** A customer as read from the server (ids canonical, unknown fields kept). */
export type Customer = z.output<typeof customerSchemas.read>;
/** What an app may pass to save a customer. */
export type CustomerInput = z.input<typeof customerSchemas.write>;
/** A customer after write validation: defaults filled, ids canonical. */
export type CustomerWrite = z.output<typeof customerSchemas.write>;
