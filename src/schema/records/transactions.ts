import type { z } from 'zod';
import { id, int, optional, required, requiredRef, str, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';

/** Fields of `transactions` as the spec's table lists them. */
export const transactionFields = {
  ...dateCreatedField,
  transaction_type: required(int()),
  payment_type: required(int({ min: 0 })),
  id_employee: requiredRef(),
  id_shop: requiredRef(),
  id_cash_register: withDefault(id(), '0'),
  id_shift: withDefault(id(), '0'),
  id_customer: optional(id()),
  id_order: optional(id()),
  total_amount: withDefault(int(), 0),
  note: optional(str()),
  transaction_code: optional(str()),
  reference_code: optional(str()),
};

/** Both faces of `transactions` (`_t` = `transactions`). */
export const transactionSchemas = defineRecord('transactions', transactionFields);

/** A transaction as read from the server. */
export type Transaction = z.output<typeof transactionSchemas.read>;
/** What an app may pass to save a transaction. */
export type TransactionInput = z.input<typeof transactionSchemas.write>;
/** A transaction after write validation. */
export type TransactionWrite = z.output<typeof transactionSchemas.write>;
