export * from './errors/index.js';
export { type Id, isId, toId, tryToId, compareIds } from './ids/id.js';
export { COLLECTIONS, isCollectionName, type CollectionName } from './schema/collections.js';
