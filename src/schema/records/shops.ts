import type { z } from 'zod';
import { bool, int, optional, required, str } from '../field.js';
import { defineUnstatedRecord } from '../record-schema.js';

/**
 * Fields of `shops`, from the read shape the spec shows (it gives no table of rules): a shop
 * needs a name; the rest is optional and has no documented default. No `date_created` is shown.
 */
export const shopFields = {
  name: required(str()),
  visible: optional(bool()),
  currency: optional(str()),
  location_name: optional(str()),
  bitmask: optional(int()),
};

/** Both faces of `shops`. Shops have no table id: creating one needs an online round trip. */
export const shopSchemas = defineUnstatedRecord('shops', shopFields);

/** A shop as read from the server. */
export type Shop = z.output<typeof shopSchemas.read>;
/** What an app may pass to save a shop. */
export type ShopInput = z.input<typeof shopSchemas.write>;
/** A shop after write validation. */
export type ShopWrite = z.output<typeof shopSchemas.write>;
