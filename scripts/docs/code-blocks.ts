/**
 * The fenced code blocks of a Markdown file, as the docs checks read them: the language after the
 * fence, the code, the line the code starts on, and whether the block is marked partial (an HTML
 * comment `<!-- partial -->` on the line just before its fence).
 */

/** One fenced block of a Markdown file. */
export interface CodeBlock {
  /** The word after the opening fence (`ts`, `tsx`, `sh`), `''` for a plain fence. */
  lang: string;
  /** The block's text, without its fences. */
  code: string;
  /** Line (1-based) of the block's first line of code. */
  line: number;
  /** Marked deliberately partial: parsed, not type-checked. */
  partial: boolean;
}

/** The marker a deliberately partial block carries on the line before its fence. */
export const PARTIAL_MARKER = '<!-- partial -->';

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;

/** Every fenced block of `markdown`, in order (a fence inside a longer one is text of that block). */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) continue;
    const fence = open[2] ?? '```';
    const start = i + 1;
    let end = start;
    while (end < lines.length && !(lines[end] ?? '').trim().startsWith(fence)) end++;
    blocks.push({
      lang: open[3] ?? '',
      code: lines.slice(start, end).join('\n'),
      line: start + 1,
      partial: (lines[i - 1] ?? '').trim() === PARTIAL_MARKER,
    });
    i = end;
  }
  return blocks;
}

/** The TypeScript blocks (`ts`, `tsx`) of `markdown`. */
export function typeScriptBlocks(markdown: string): CodeBlock[] {
  return codeBlocks(markdown).filter((block) => block.lang === 'ts' || block.lang === 'tsx');
}
