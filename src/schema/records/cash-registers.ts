import type { z } from 'zod';
import { bool, int, optional, required, requiredRef, str } from '../field.js';
import { defineUnstatedRecord } from '../record-schema.js';

/**
 * Fields of `cash_registers`, from the read shape the spec shows: a register needs a name and
 * its shop; the rest is optional with no documented default. No `date_created` or `_d` is shown.
 */
export const cashRegisterFields = {
  name: required(str()),
  id_shop: requiredRef(),
  visible: optional(bool()),
  location_name: optional(str()),
  cash_register_type: optional(int()),
  bitmask: optional(int()),
};

/** Both faces of `cash_registers`. No table id: creating one needs an online round trip. */
export const cashRegisterSchemas = defineUnstatedRecord('cash_registers', cashRegisterFields);

/** A cash register as read from the server. */
export type CashRegister = z.output<typeof cashRegisterSchemas.read>;
/** What an app may pass to save a cash register. */
export type CashRegisterInput = z.input<typeof cashRegisterSchemas.write>;
/** A cash register after write validation. */
export type CashRegisterWrite = z.output<typeof cashRegisterSchemas.write>;
