export { type Id, isId, tryToId, toId, compareIds } from './id.js';
export { TABLE_IDS, type TableName } from './table-ids.js';
export { ID_EPOCH, composeId, type IdParts } from './compose-id.js';
export { decodeId } from './decode-id.js';
export { createIdGenerator, IDS_PER_MS, type IdGenerator, type IdGeneratorOptions, type GenerateIdOptions } from './id-generator.js';
export { generateId } from './generate-id.js';
