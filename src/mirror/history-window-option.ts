import { z } from 'zod';
import { WINDOWED_COLLECTIONS, type HistoryWindow } from '../sync/cycle/index.js';

const DAYS_MESSAGE = 'must be a positive number of days';

/**
 * The option `historyWindow`: an object of days (positive numbers) by history collection. An
 * unknown key (`order_details` too: its window is that of `orders`, so an order's items come and go
 * with it) is named with the keys it may be.
 */
export const historyWindowOption = z
  .record(
    z.string().refine((key) => (WINDOWED_COLLECTIONS as readonly string[]).includes(key)),
    z.number({ error: DAYS_MESSAGE }).positive(DAYS_MESSAGE).max(Number.MAX_SAFE_INTEGER / 86_400_000, DAYS_MESSAGE),
    {
      error: (issue) =>
        issue.code === 'invalid_key'
          ? `not a collection a window bounds; known: ${WINDOWED_COLLECTIONS.join(', ')} (order_details follow their orders: bound orders)`
          : 'must be an object of days by history collection ({ orders: 30 })',
    },
  )
  .optional() as z.ZodType<HistoryWindow | undefined>;
