import { dateTime } from '../shared/format.js';
import { Badge } from './badge.js';
import type { BookedCountRow } from './booked-counts.js';

/** The latest counts of the warehouse, each waiting to be sent or on the server. */
export function BookedList({ rows, locale }: { rows: BookedCountRow[]; locale: string | undefined }) {
  return (
    <div className="card history">
      <div className="card-head">
        <h2>Counts of this warehouse</h2>
      </div>
      {rows.length === 0 ? (
        <div className="empty">No counts booked yet.</div>
      ) : (
        <table>
          <tbody>
            {rows.map(({ stockup, waiting }) => (
              <tr key={stockup.id} data-test="booked-count" data-stockup-id={stockup.id}>
                <td className="num">{dateTime(stockup.date_stocked, locale)}</td>
                <td>{String(stockup.note ?? '')}</td>
                <td className="right">
                  {waiting ? <Badge tone="warn" test="booked-state">Waiting to send</Badge> : <Badge tone="ok" test="booked-state">On the server</Badge>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
