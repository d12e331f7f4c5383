/** Something that can be put inside an element. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Attributes and listeners of {@link h}: `on*` functions become listeners, `value`/`checked` properties. */
export type Props = Record<string, unknown>;

/**
 * Creates an element: `h('button', { class: 'primary', onclick: save }, 'Save')`. Text children
 * are set as text, never as HTML, so record values cannot inject markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props?: Props | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value as EventListener);
    } else if (key === 'value' || key === 'checked' || key === 'disabled' || key === 'selected') {
      (el as unknown as Record<string, unknown>)[key] = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's content. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** A badge: `tone` picks the colour (`ok`, `warn`, `bad`, `info`, `muted`). */
export function badge(text: string, tone: 'ok' | 'warn' | 'bad' | 'info' | 'muted', test?: string): HTMLSpanElement {
  return h('span', { class: `badge badge-${tone}`, 'data-test': test }, text);
}

/** Runs `fn` at most once per `ms` after the last call (search boxes). */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
