import { useRef, useState } from 'react';
import { useMirror } from 'pos-cloud-mirror/react';
import type { StoredRecord } from 'pos-cloud-mirror';
import { findProduct } from './find-product.js';

/** What the line under the scan box says. */
export type Feedback =
  | { kind: 'hint' }
  | { kind: 'counted'; name: string; count: number }
  | { kind: 'unknown'; code: string }
  | { kind: 'several'; text: string; products: StoredRecord[] }
  | { kind: 'booked'; stockupId: string; products: number; waiting: boolean }
  | { kind: 'not-booked'; reason: string };

/**
 * The scan box: a barcode, EAN or SKU adds one of its product; a typed name adds one of the
 * only product it matches, or lists the matches to pick from. Works without network.
 */
export function ScanBox({ feedback, onFeedback, onCount }: { feedback: Feedback; onFeedback(f: Feedback): void; onCount(product: StoredRecord): number }) {
  const mirror = useMirror();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');

  const count = (product: StoredRecord) => {
    onFeedback({ kind: 'counted', name: String(product.name), count: onCount(product) });
    input.current?.focus();
  };
  const scan = async () => {
    const text = code.trim();
    setCode('');
    if (!text || !mirror) return;
    const found = await findProduct(mirror, text);
    if (found.kind === 'one') count(found.product);
    else if (found.kind === 'several') onFeedback({ kind: 'several', text, products: found.products });
    else onFeedback({ kind: 'unknown', code: text });
    input.current?.focus();
  };

  return (
    <div className="card scan-card">
      <div className="card-head">
        <h2>Scan</h2>
      </div>
      <div className="card-body">
        <input
          ref={input}
          className="big"
          placeholder="Scan or type a barcode, EAN or name"
          autoComplete="off"
          autoFocus
          data-test="scan"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && void scan()}
        />
        <FeedbackLine feedback={feedback} onPick={count} />
      </div>
    </div>
  );
}

function FeedbackLine({ feedback, onPick }: { feedback: Feedback; onPick(product: StoredRecord): void }) {
  const line = (tone: string, text: string, extra: Record<string, string> = {}) => (
    <div className={`feedback ${tone}`} data-test="scan-feedback" aria-live="polite" {...extra}>
      {text}
    </div>
  );
  switch (feedback.kind) {
    case 'hint':
      return line('', 'Each scan adds one. Press Enter after typing a code. Works without network.');
    case 'counted':
      return line('ok', `${feedback.name}: ${feedback.count} counted`);
    case 'unknown':
      return line('bad', `No product with code “${feedback.code}”`);
    case 'not-booked':
      return line('bad', `Not booked: ${feedback.reason}`);
    case 'booked':
      return line(
        'ok',
        feedback.waiting
          ? `Count booked (${feedback.products} products). It is sent to the server when online.`
          : `Count booked (${feedback.products} products) and on the server.`,
        { 'data-stockup-id': feedback.stockupId },
      );
    case 'several':
      return (
        <div className="feedback" data-test="scan-feedback" aria-live="polite">
          <span>{`${feedback.products.length} products match “${feedback.text}”: pick one.`}</span>
          <div className="matches">
            {feedback.products.map((p) => (
              <button key={p.id} data-test="match" data-product-id={p.id} onClick={() => onPick(p)}>
                {String(p.name)}
              </button>
            ))}
          </div>
        </div>
      );
  }
}
