import { dateTime } from './format.js';
import { h, replace } from './dom.js';
import { isValidationError, PosCloudError, type Mirror, type StrandedCopy, type TakeOverReport } from 'pos-cloud-mirror';

/** Why a change stays in the other copy, in words. */
const LEFT_REASONS: Record<TakeOverReport['left'][number]['reason'], string> = {
  'edited-here': 'changed here too',
  'missing-record': 'its record is missing there',
  'parent-left': 'it belongs to a record that stays there',
  'not-mirrored': 'this app does not keep that kind of record',
  'edited-there': 'changed there again meanwhile',
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The address a copy belongs to, as a person knows it. */
function addressOf(copy: StrandedCopy): string {
  return copy.baseUrl;
}

/**
 * What happened when a person asked to send a copy's changes here: the report in words, or why
 * it could not be done and what to do about it.
 */
function outcome(copy: StrandedCopy, result: TakeOverReport | unknown): { text: string; tone: 'ok' | 'bad' } {
  if (result && typeof result === 'object' && 'taken' in result && 'left' in result) {
    const report = result as TakeOverReport;
    const moved = report.taken > 0 ? `${plural(report.taken, 'change', 'changes')} moved to this address: sending them now.` : 'The changes were already here: the move is finished.';
    if (report.left.length === 0) return { text: moved, tone: 'ok' };
    const why = [...new Set(report.left.map((l) => LEFT_REASONS[l.reason]))].join('; ');
    return { text: `${moved} ${plural(report.left.length, 'change stays', 'changes stay')} in the copy of ${addressOf(copy)} (${why}).`, tone: 'ok' };
  }
  const message = result instanceof Error ? result.message : String(result);
  if (isValidationError(result) && /sync it first/.test(message)) return { text: 'This address has not synced yet: try again once its first sync is done.', tone: 'bad' };
  if (isValidationError(result) && /another account/.test(message)) {
    return { text: `The copy of ${addressOf(copy)} holds another account's data: its changes are not sent here. Switch back to that address to send them.`, tone: 'bad' };
  }
  if (result instanceof PosCloudError && /syncs that copy now/.test(message)) return { text: 'Another tab still works with that address: close it, then try again.', tone: 'bad' };
  return { text: `The changes could not be moved: ${message}`, tone: 'bad' };
}

/**
 * Changes left under another address: the copies `mirror.status.stranded` reports (the app was
 * switched to another address while they were not sent), each with a button that hands them to
 * this address's mirror (`mirror.takeOverEdits`), which sends them with its next sync. What the
 * last move did stays shown. Returns a function that stops rendering.
 */
export function renderStrandedNotice(mirror: Mirror, panel: HTMLElement, locale?: string): () => void {
  let copies: readonly StrandedCopy[] = [];
  const results = new Map<string, { text: string; tone: 'ok' | 'bad' }>();
  const busy = new Set<string>();

  const send = async (copy: StrandedCopy) => {
    busy.add(copy.dbName);
    results.delete(copy.dbName);
    draw();
    try {
      results.set(copy.dbName, outcome(copy, await mirror.takeOverEdits(copy.dbName)));
    } catch (error) {
      results.set(copy.dbName, outcome(copy, error));
    } finally {
      busy.delete(copy.dbName);
      draw();
    }
  };

  const card = (copy: StrandedCopy) => {
    const count = copy.pending > 0 ? plural(copy.pending, 'change', 'changes') : plural(copy.takenOver, 'change', 'changes');
    const last = copy.lastEditAt === undefined ? '' : `, the last on ${dateTime(copy.lastEditAt, locale)}`;
    return h('div', { class: 'stranded-copy', 'data-test': 'stranded-copy', 'data-db-name': copy.dbName },
      h('div', { class: 'problem-text' },
        h('strong', null, 'Changes not sent from another address. '),
        h('span', { 'data-test': 'stranded-text' },
          copy.pending > 0
            ? `${count} made on this device under ${addressOf(copy)}${last} ${copy.pending === 1 ? 'was' : 'were'} never sent: they are kept in that address's copy.`
            : `A move of ${count} from ${addressOf(copy)} to this address was cut short: finish it.`),
        copy.conflicts > 0 && h('div', { class: 'small' }, `${plural(copy.conflicts, 'of them is a conflict', 'of them are conflicts')} to decide once moved.`)),
      h('button', { type: 'button', class: 'primary', 'data-test': 'stranded-take-over', disabled: busy.has(copy.dbName), onclick: () => void send(copy) },
        busy.has(copy.dbName) ? 'Moving…' : copy.pending > 0 ? 'Send them through this address' : 'Finish the move'));
  };

  const draw = () => {
    const shownResults = [...results].filter(([name]) => !busy.has(name));
    panel.hidden = copies.length === 0 && shownResults.length === 0;
    replace(panel,
      h('div', { class: 'notice stranded', 'data-test': 'stranded' },
        copies.map(card),
        shownResults.map(([name, r]) => h('div', { class: `stranded-result ${r.tone}`, 'data-test': 'stranded-result', 'data-db-name': name }, r.text))));
  };

  const sub = mirror.status.subscribe((s) => {
    if (s.stranded === copies) return;
    copies = s.stranded ?? [];
    draw();
  });
  return () => {
    sub.unsubscribe();
    replace(panel);
    panel.hidden = true;
  };
}
