import type { Mirror } from 'pos-cloud-mirror';
import type { CountSession } from './count-session.js';

/**
 * `stock_history_type` of a count's stock-up and rows. The spec does not name these codes; 3 is
 * what the simulator uses for corrections. Set the code your register system uses.
 */
export const COUNT_STOCK_HISTORY_TYPE = 3;
/** `stock_type` of a count's rows (a code the spec does not name either; the simulator uses 1). */
const COUNT_STOCK_TYPE = 1;

/** Who counted, and the register and shop the count is booked at (the spec requires them). */
export interface CountContext {
  idEmployee: string;
  idShop: string;
  idCashRegister: string;
}

/** The stock-up and rows a finished count became. */
export interface BookedCount {
  stockupId: string;
  rowIds: string[];
  /** `quanity` booked per product id. */
  corrections: Record<string, number>;
}

/**
 * Books a finished count: one stock-up and one stock history row per counted product, whose
 * `quanity` (the spec's spelling) is the correction counted − expected, so the warehouse report
 * shows the counted quantity afterwards. The records get their ids here, on the device
 * (`tx.save` composes them), are written in one `mirror.transaction` (all of them with their
 * outbox entries, or none) and pushed when online, stock-up first.
 */
export async function bookCount(
  mirror: Mirror,
  session: CountSession,
  expected: Record<string, number>,
  ctx: CountContext,
  now = Date.now(),
): Promise<BookedCount> {
  const products = session.order.filter((id) => session.counts[id] !== undefined);
  const differences = products.filter((id) => (session.counts[id] ?? 0) !== (expected[id] ?? 0)).length;
  return mirror.transaction(['stockup', 'stock_history'], async (tx) => {
    const common = { id_employee: ctx.idEmployee, id_shop: ctx.idShop, id_warehouse: session.warehouseId, id_cash_register: ctx.idCashRegister };
    const stockupId = await tx.save('stockup', {
      ...common,
      stock_history_type: COUNT_STOCK_HISTORY_TYPE,
      date_stocked: now,
      note: `Inventory count: ${products.length} products, ${differences} differences`,
      invoice_number: null,
      id_supplier: null,
      total_product_purchase_unit_price_tax_excl: null,
    });
    const rowIds: string[] = [];
    const corrections: Record<string, number> = {};
    for (const productId of products) {
      const counted = session.counts[productId] ?? 0;
      const wanted = expected[productId] ?? 0;
      corrections[productId] = Math.round((counted - wanted) * 1000) / 1000;
      rowIds.push(
        await tx.save('stock_history', {
          ...common,
          id_record: productId,
          id_stockup: stockupId,
          stock_type: COUNT_STOCK_TYPE,
          stock_history_type: COUNT_STOCK_HISTORY_TYPE,
          quanity: corrections[productId],
          date_stocked: now,
          note: `Counted ${counted}, expected ${wanted}`,
        }),
      );
    }
    return { stockupId, rowIds, corrections };
  });
}
