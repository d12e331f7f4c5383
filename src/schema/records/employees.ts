import type { z } from 'zod';
import { bool, int, optional, required, str, time, withDefault } from '../field.js';
import { dateCreatedField, defineRecord } from '../record-schema.js';

/** Fields of `employees` as the spec's table lists them. */
export const employeeFields = {
  ...dateCreatedField,
  name: required(str()),
  visible: withDefault(bool(), true),
  visible_cash_register: withDefault(bool(), true),
  pin_require: withDefault(bool(), false),
  perm_inventory_bitmask: withDefault(int(), 0),
  perm_cloud_bitmask: withDefault(int(), 0),
  perm_bitmask: withDefault(int(), 0),
  salt: optional(str()),
  pin_hash: optional(str()),
  pass_hash: optional(str()),
  otp_hash: optional(str()),
  tags: optional(str()),
  phone_number: optional(str()),
  barcode: optional(str()),
  email: optional(str()), // str? in the spec: no e-mail format rule for employees
  date_expires: optional(time()),
};

/** Both faces of `employees` (`_t` = `employees`). */
export const employeeSchemas = defineRecord('employees', employeeFields);

/** An employee as read from the server. */
export type Employee = z.output<typeof employeeSchemas.read>;
/** What an app may pass to save an employee. */
export type EmployeeInput = z.input<typeof employeeSchemas.write>;
/** An employee after write validation. */
export type EmployeeWrite = z.output<typeof employeeSchemas.write>;
