import { dateTime, quantity } from '../shared/format.js';
import type { CountSession } from './count-session.js';
import type { ExpectedStock } from './expected-stock.js';

interface CountSummaryProps {
  session: CountSession;
  expected: ExpectedStock;
  quantities: Record<string, number>;
  locale: string | undefined;
  onFinish(): void;
  onRefresh(): void;
  onDiscard(): void;
}

/** The count's figures, where the expected quantities come from, and what can be done with it. */
export function CountSummary({ session, expected, quantities, locale, onFinish, onRefresh, onDiscard }: CountSummaryProps) {
  const ids = session.order;
  const units = ids.reduce((sum, id) => sum + (session.counts[id] ?? 0), 0);
  const differences = ids.filter((id) => (session.counts[id] ?? 0) !== (quantities[id] ?? 0)).length;
  const booked = expected.unreported.length;
  return (
    <div className="card summary">
      <div className="summary-figures">
        <Figure label="Products counted" value={String(ids.length)} test="count-products" />
        <Figure label="Units counted" value={quantity(units, locale)} test="count-units" />
        <Figure label="Differences" value={String(differences)} test="count-differences" />
      </div>
      <div className="muted small expected-note" data-test="expected-note">
        {expected.fetchedAt === undefined
          ? 'No stock report on this device yet: connect once to download it.'
          : `Expected quantities from the stock report of ${dateTime(expected.fetchedAt, locale)}, kept on this device${booked ? `, with ${booked} count${booked === 1 ? '' : 's'} booked since` : ''}.`}
      </div>
      <div className="actions">
        <button className="primary" data-test="finish" disabled={ids.length === 0} onClick={onFinish}>
          Finish count
        </button>
        <button data-test="refresh-expected" onClick={onRefresh}>
          Refresh report
        </button>
        <button className="danger" disabled={ids.length === 0} onClick={onDiscard}>
          Discard
        </button>
      </div>
    </div>
  );
}

function Figure({ label, value, test }: { label: string; value: string; test: string }) {
  return (
    <div className="figure">
      <span className="muted small">{label}</span>
      <strong data-test={test}>{value}</strong>
    </div>
  );
}
