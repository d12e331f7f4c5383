/** A badge: `tone` picks the colour, as the shared DOM helper's badges. */
export function Badge({ tone, test, children }: { tone: 'ok' | 'warn' | 'bad' | 'info' | 'muted'; test?: string; children: string }) {
  return (
    <span className={`badge badge-${tone}`} data-test={test}>
      {children}
    </span>
  );
}
