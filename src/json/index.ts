export { parseJson } from './parse-json.js';
export { stringifyJson } from './stringify-json.js';
export { PROTOTYPE_KEYS } from './prototype-keys.js';
