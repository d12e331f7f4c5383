import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The project's lint: type-aware rules that catch real mistakes (floating and misused promises,
 * unnecessary conditions, unsafe `any`, needless assertions, duplicate imports, unbound methods).
 * The library (`src/`) gets typescript-eslint's strict set; tests, scripts, benchmarks and examples
 * a lighter one: the promise rules, duplicate imports and the hooks rules (their casts and `any`
 * are how test doubles and fixtures are written).
 */
export default defineConfig(
  // Built files (the library's dist/ and the examples' built apps, the API reference), test reports, the JSON test corpus, and the
  // consumer check's app (compiled on its own against the packed package: scripts/ci/consumer-check.sh).
  { ignores: ['**/dist/**', 'test-output/**', 'node_modules/**', 'coverage/**', 'docs/api/**', 'test/json/corpus/**', 'examples/**/public/**', 'scripts/ci/consumer-app/**'] },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.base, tseslint.configs.eslintRecommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'no-duplicate-imports': ['error', { includeExports: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // The TypeScript-aware form below sees type-only uses; the core rule does not.
      'no-unused-vars': 'off',
      // `_name` marks a value left out on purpose (a field dropped by destructuring, an unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.strictTypeChecked],
    rules: {
      // Numbers in messages are intended (counts, limits, indexes); anything else must be made text on purpose.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // With noUncheckedIndexedAccess, `!` after an index the code has just checked is the idiom.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Style only: `() => void-returning call` in an arrow is how callbacks read here.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Records are plain dictionaries keyed by field and collection names: deleting such a key is intended.
      '@typescript-eslint/no-dynamic-delete': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**', 'scripts/**', 'bench/**', 'examples/**'],
    rules: {
      // A `let` declared before the callback that assigns it reads in the order things happen.
      'prefer-const': 'off',
    },
  },
  {
    // A page script, run in the browser before the library.
    files: ['test/browser/page/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', location: 'readonly', Navigator: 'readonly', IDBFactory: 'readonly', IDBObjectStore: 'readonly', IDBTransaction: 'readonly', IDBRequest: 'readonly', IDBDatabase: 'readonly', DOMException: 'readonly', URLSearchParams: 'readonly', Event: 'readonly', indexedDB: 'readonly', IDBCursor: 'readonly', IDBIndex: 'readonly', queueMicrotask: 'readonly' } },
  },
  {
    files: ['src/simulator/**/*.ts'],
    rules: {
      // The simulator's rows are its own loosely typed records; the fields it turns into text are ids and names it wrote.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
);
