/** The package's entries as an app imports them, and the source in src/ each one is built from (package.json `exports`). */
export const ENTRY_SOURCES: Readonly<Record<string, string>> = {
  'pos-cloud-mirror': 'src/index.ts',
  'pos-cloud-mirror/react': 'src/react/index.ts',
  'pos-cloud-mirror/node': 'src/node/index.ts',
  'pos-cloud-mirror/simulator': 'src/simulator/index.ts',
};
