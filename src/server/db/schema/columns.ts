import { timestamp } from 'drizzle-orm/pg-core';

/** Every time the schema stores is a `timestamptz`. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/** When the row was written. */
export const createdAt = () => timestamptz('created_at').notNull().defaultNow();
