import { useCallback, useRef, useState } from 'react';
import { isValidationError, type ValidationIssue } from '../errors/validation-error.js';
import type { Id } from '../ids/id.js';
import type { Mirror } from '../mirror/mirror.js';
import type { CollectionName } from '../schema/collections.js';
import type { NoExtraFields, SaveInputOf } from '../schema/types.js';
import { fieldErrorsOf } from './field-errors.js';
import { requireMirror, useMirror } from './mirror-context.js';

/** Where an edit stands, as {@link useSave} and {@link useRemove} report it. */
export interface EditState {
  /** An edit is being written (locally: it does not wait for the network). */
  busy: boolean;
  /** Why the last edit failed (a `ValidationError`, a `StorageError`, ...), until the next one or `reset()`. */
  error: unknown;
  /** Every issue of the last `ValidationError` (empty otherwise). */
  issues: ValidationIssue[];
  /** The first message per field of the last `ValidationError` (`fieldErrors.phone`); `''` for the record as a whole. */
  fieldErrors: Record<string, string>;
  /** Forgets the last error. */
  reset(): void;
}

/** What {@link useSave} returns, for records of collection `C` (and the extra fields `X`, see `SaveInputOf`). */
export interface SaveState<C extends CollectionName = CollectionName, X extends object = NoExtraFields> extends EditState {
  /**
   * Validates, stores and queues the record (`mirror.save`). Resolves with its id, or with
   * `undefined` when it failed: the reason is then in `error`, and per field in `fieldErrors`.
   */
  save(record: SaveInputOf<C, X>): Promise<Id | undefined>;
}

/** What {@link useRemove} returns. */
export interface RemoveState extends EditState {
  /** Deletes the record locally and queues the deletion (`mirror.remove`). Resolves true when done, false when it failed (see `error`). */
  remove(id: Id): Promise<boolean>;
}

interface Outcome {
  busy: boolean;
  error: unknown;
  issues: ValidationIssue[];
  fieldErrors: Record<string, string>;
}

const IDLE: Outcome = { busy: false, error: undefined, issues: [], fieldErrors: {} };

/** Runs edits one after another and keeps the outcome of the last for rendering. */
function useEditRunner(what: string): EditState & { run: <T>(edit: (mirror: Mirror) => Promise<T>) => Promise<T | undefined> } {
  const mirror = useMirror();
  const [outcome, setOutcome] = useState<Outcome>(IDLE);
  const latest = useRef(0);
  const run = useCallback(
    async <T>(edit: (m: Mirror) => Promise<T>): Promise<T | undefined> => {
      const mine = ++latest.current;
      setOutcome({ ...IDLE, busy: true });
      const settle = (next: Outcome) => {
        // A later edit's outcome is the one shown.
        if (latest.current === mine) setOutcome(next);
      };
      try {
        const result = await edit(requireMirror(mirror, what));
        settle(IDLE);
        return result;
      } catch (error) {
        const issues = isValidationError(error) ? error.issues : [];
        settle({ busy: false, error, issues, fieldErrors: fieldErrorsOf(issues) });
        return undefined;
      }
    },
    [mirror, what],
  );
  const reset = useCallback(() => {
    latest.current++;
    setOutcome(IDLE);
  }, []);
  return { ...outcome, reset, run };
}

/**
 * Saves records of `collection` from a form, typed by it (see `Mirror.save`): `save(record)` resolves with the id, or `undefined`
 * with the reason in `error` and, for a `ValidationError`, a message per field in `fieldErrors`.
 * Nothing is written when it fails.
 *
 * ```tsx
 * const { save, busy, fieldErrors } = useSave('customers');
 * <input name="phone" aria-invalid={!!fieldErrors.phone} /> {fieldErrors.phone}
 * ```
 */
export function useSave<C extends CollectionName, X extends object = NoExtraFields>(collection: C): SaveState<C, X> {
  const { run, ...state } = useEditRunner(`useSave('${collection}').save`);
  const save = useCallback((record: SaveInputOf<C, X>) => run((mirror) => mirror.save<C, X>(collection, record)), [run, collection]);
  return { ...state, save };
}

/** Deletes records of `collection`: `remove(id)` resolves true, or false with the reason in `error`. */
export function useRemove(collection: CollectionName): RemoveState {
  const { run, ...state } = useEditRunner(`useRemove('${collection}').remove`);
  const remove = useCallback(
    async (id: Id) => (await run(async (mirror) => {
      await mirror.remove(collection, id);
      return true;
    })) ?? false,
    [run, collection],
  );
  return { ...state, remove };
}
