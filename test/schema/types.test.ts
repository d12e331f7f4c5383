import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Id } from '../../src/ids/id.js';
import {
  parseRecord,
  schemas,
  validateWrite,
  type CategoryNode,
  type Customer,
  type CustomerInput,
  type Order,
  type OrderDetail,
  type PriceMatrixRow,
  type Product,
  type RecordOf,
  type WriteInputOf,
} from '../../src/schema/index.js';

// Type assertions are checked by `tsc`; each test also checks the runtime value they describe.
describe('inferred record types', () => {
  it('maps collection names to their read types', () => {
    expectTypeOf<RecordOf<'orders'>>().toEqualTypeOf<Order>();
    expectTypeOf<RecordOf<'customers'>>().toEqualTypeOf<Customer>();
    expectTypeOf<WriteInputOf<'customers'>>().toEqualTypeOf<CustomerInput>();
    const result = parseRecord('orders', { id: 1, _v: 1 });
    if (result.ok) expectTypeOf(result.record).toEqualTypeOf<Order>();
    expect(result.ok).toBe(true);
  });

  it('types ids as canonical strings and hydrations as child records', () => {
    expectTypeOf<Order['id']>().toEqualTypeOf<Id>();
    expectTypeOf<Order['id_customer']>().toEqualTypeOf<Id | null | undefined>();
    expectTypeOf<NonNullable<Order['__order_details']>[number]>().toEqualTypeOf<OrderDetail>();
    expectTypeOf<NonNullable<Product['__price_matrix_model']>>().toEqualTypeOf<PriceMatrixRow>();
    expectTypeOf<NonNullable<CategoryNode['children']>[number]['name']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Order['_d']>().toEqualTypeOf<number>();
    expectTypeOf<Order['_t']>().toEqualTypeOf<'orders'>();
    const order = schemas.orders.read.parse({ id: 5n, _v: 1, id_customer: 9 });
    expect([typeof order.id, typeof order.id_customer]).toEqual(['string', 'string']);
  });

  it('types write outputs with their defaults filled', () => {
    const customer = validateWrite('customers', { company: null });
    expectTypeOf(customer.price_group).toEqualTypeOf<'A' | 'B' | 'C'>();
    expectTypeOf(customer.country_code).toEqualTypeOf<string>();
    expectTypeOf(customer.date_created).toEqualTypeOf<number>();
    expectTypeOf(customer.company).toEqualTypeOf<string | null>();
    expect([customer.price_group, customer.country_code]).toEqual(['A', 'CZ']);
    // @ts-expect-error: company is a required key of a customer write
    const input: CustomerInput = { firstname: 'Jana' };
    expect(() => validateWrite('customers', input)).toThrow(/company: required/);
  });
});
