import type { z } from 'zod';
import { dateCreatedField, defineUnstatedRecord } from '../record-schema.js';

/** `shifts`: the spec does not show its fields, so only the common ones are checked. */
export const shiftSchemas = defineUnstatedRecord('shifts', { ...dateCreatedField });

/** A shift as read from the server: common fields plus whatever it carries. */
export type Shift = z.output<typeof shiftSchemas.read>;
/** What an app may pass to save a shift. */
export type ShiftInput = z.input<typeof shiftSchemas.write>;
/** A shift after write validation. */
export type ShiftWrite = z.output<typeof shiftSchemas.write>;
