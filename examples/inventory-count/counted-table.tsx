import { useState } from 'react';
import { useLiveQuery } from 'pos-cloud-mirror/react';
import type { StoredRecord } from 'pos-cloud-mirror';
import { Badge } from './badge.js';
import type { CountSession } from './count-session.js';
import { readCount } from './count-rules.js';

interface CountedTableProps {
  session: CountSession;
  expected: Record<string, number>;
  onSet(productId: string, quantity: number): void;
  onStep(productId: string, delta: number): void;
}

/** What was counted so far, against what is expected, the latest first. */
export function CountedTable({ session, expected, onSet, onStep }: CountedTableProps) {
  const ids = session.order;
  const products = useLiveQuery((mirror) => mirror.db.products.bulkGet(ids), [ids.join(',')], []);
  if (ids.length === 0) {
    return (
      <div className="card counted">
        <div className="empty">Nothing counted yet. Scan the first item.</div>
      </div>
    );
  }
  return (
    <div className="card counted">
      <table>
        <thead>
          <tr>
            <th>Product</th>
            <th>Code</th>
            <th className="right">Expected</th>
            <th className="right">Counted</th>
            <th className="right">Difference</th>
          </tr>
        </thead>
        <tbody>
          {ids.map((id, i) => (
            <CountedRow
              key={id}
              id={id}
              product={products[i]}
              counted={session.counts[id] ?? 0}
              expected={expected[id]}
              onSet={(q) => onSet(id, q)}
              onStep={(d) => onStep(id, d)}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface CountedRowProps {
  id: string;
  product: StoredRecord | undefined;
  counted: number;
  expected: number | undefined;
  onSet(quantity: number): void;
  onStep(delta: number): void;
}

/** One product's line: a typed count is checked when it is entered, and refused with a message when it cannot be right. */
function CountedRow({ id, product, counted, expected, onSet, onStep }: CountedRowProps) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const commit = () => {
    if (draft === undefined) return;
    const entry = readCount(draft, product);
    if (!entry.ok) return setProblem(entry.message);
    setProblem(undefined);
    setDraft(undefined);
    onSet(entry.quantity);
  };
  const step = (delta: number) => {
    setProblem(undefined);
    setDraft(undefined);
    onStep(delta);
  };
  const diff = Math.round((counted - (expected ?? 0)) * 1000) / 1000;
  return (
    <tr data-test="counted-row" data-product-id={id}>
      <td>
        <strong>{String(product?.name ?? id)}</strong>
      </td>
      <td className="num muted">{String(product?.barcode ?? product?.ean13 ?? '')}</td>
      <td className="right num" data-test="expected">
        {expected === undefined ? '—' : String(expected)}
      </td>
      <td className="right">
        <div className="stepper">
          <button onClick={() => step(-1)} disabled={counted <= 0} aria-label="one less">
            −
          </button>
          <input
            type="text"
            inputMode="decimal"
            className="qty"
            data-test="counted-input"
            aria-invalid={problem !== undefined}
            value={draft ?? String(counted)}
            onChange={(e) => setDraft(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => e.key === 'Enter' && commit()}
          />
          <button onClick={() => step(1)} aria-label="one more">
            +
          </button>
        </div>
        {problem && (
          <div className="field-error" data-test="count-error" role="alert">
            {problem}
          </div>
        )}
      </td>
      <td className="right num" data-test="difference">
        {diff === 0 ? <Badge tone="ok">matches</Badge> : <Badge tone={diff > 0 ? 'info' : 'warn'}>{diff > 0 ? `+${diff}` : String(diff)}</Badge>}
      </td>
    </tr>
  );
}
