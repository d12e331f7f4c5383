export { parseJson } from './parse-json.js';
export { parseJsonBytes } from './parse-json-bytes.js';
export { stringifyJson } from './stringify-json.js';
export { PROTOTYPE_KEYS } from './prototype-keys.js';
