import type { z } from 'zod';
import { dateCreatedField, defineUnstatedRecord } from '../record-schema.js';

/** `park_locations`: the spec does not show its fields, so only the common ones are checked. */
export const parkLocationSchemas = defineUnstatedRecord('park_locations', { ...dateCreatedField });

/** A park location as read from the server: common fields plus whatever it carries. */
export type ParkLocation = z.output<typeof parkLocationSchemas.read>;
/** What an app may pass to save a park location. */
export type ParkLocationInput = z.input<typeof parkLocationSchemas.write>;
/** A park location after write validation. */
export type ParkLocationWrite = z.output<typeof parkLocationSchemas.write>;
