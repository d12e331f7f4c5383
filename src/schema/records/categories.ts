import { z } from 'zod';
import { bool, id, int, optional, required, str, withDefault } from '../field.js';
import { normalizeIdFields } from '../id-fields.js';
import { commonFieldsUnstatedTable, finishWrite, readShape, writeShape } from '../record-schema.js';

/**
 * Fields of a category node, from the read shape the spec shows. Child nodes may also carry
 * `margin_minimal_rate`, `margin` (types not shown: passed through untouched) and `tags`.
 */
export const categoryFields = {
  ...commonFieldsUnstatedTable('categories'),
  name: required(str()),
  visible: optional(bool()),
  category_bitmask: optional(int()),
  icon_code: optional(int()),
  node_sort: optional(int()),
  id_category_sort_after: withDefault(id(), '0'), // 0 if none
  id_category_parent: withDefault(id(), '0'), // 0 for a root
  id_shop: optional(id()),
  color: optional(int()),
  tags: optional(str()),
};

const readFields = readShape(categoryFields);
const writeFields = writeShape(categoryFields);

const categoryNodeObject = z.looseObject(readFields).extend({
  get children() {
    return z.array(categoryNodeObject).nullable().optional();
  },
});

const categoryWriteObject = z.looseObject(writeFields).extend({
  get children() {
    return z.array(categoryWriteObject).optional();
  },
});

/** A category as read from `GET categories`: roots with nested `children` of the same shape. */
export const categoryNodeSchema = categoryNodeObject.overwrite((node) => eachNode(node, normalizeIdFields));

/** A category as an app may write it (categories are not a POST collection of the spec). */
export const categoryWriteSchema = categoryWriteObject.overwrite((node) => eachNode(node, finishWrite));

/** Applies `fix` to a node and to all its descendants, keeping what `fix` returns at each depth. */
function eachNode<T extends { children?: T[] | null | undefined }>(node: T, fix: (n: T) => T): T {
  const fixed = fix(node);
  if (Array.isArray(node.children)) fixed.children = node.children.map((child) => eachNode(child, fix));
  return fixed;
}

/** Both faces of a category node. */
export const categorySchemas = { read: categoryNodeSchema, write: categoryWriteSchema };

/** A category node as read from the server, with its `children`. */
export type CategoryNode = z.output<typeof categoryNodeSchema>;
/** What an app may pass to write a category. */
export type CategoryInput = z.input<typeof categoryWriteSchema>;
/** A category after write validation. */
export type CategoryWrite = z.output<typeof categoryWriteSchema>;
